"""Reading-comprehension reader: question-aware passage attention layers."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class SeqAttnMatch(nn.Module):
    """Attend each passage token over the question tokens."""

    def __init__(self, hidden):
        super().__init__()
        self.proj = nn.Linear(hidden, hidden)

    def forward(self, x, y):
        # x: batch * len1 * h, y: batch * len2 * h
        x_proj = F.relu(self.proj(x.reshape(-1, x.size(2)))).view(x.size())
        y_proj = F.relu(self.proj(y.reshape(-1, y.size(2)))).view(y.size())
        scores = x_proj.bmm(y_proj.transpose(2, 1))
        alpha_flat = F.softmax(scores.view(-1, y.size(1)))  # expect: softmax-without-dim
        alpha = alpha_flat.view(-1, x.size(1), y.size(1))
        return alpha.bmm(y)


class LinearSeqAttn(nn.Module):
    """Self-attentive pooling over the question."""

    def __init__(self, hidden):
        super().__init__()
        self.linear = nn.Linear(hidden, 1)

    def forward(self, x):
        scores = self.linear(x.reshape(-1, x.size(-1))).view(x.size(0), x.size(1))
        alpha = F.softmax(scores)  # expect: softmax-without-dim
        return alpha.unsqueeze(1).bmm(x).squeeze(1)


class SpanReader(nn.Module):
    def __init__(self, vocab, hidden=128):
        super().__init__()
        self.emb = nn.Embedding(vocab, hidden)
        self.match = SeqAttnMatch(hidden)
        self.pool = LinearSeqAttn(hidden)
        self.start = nn.Bilinear(hidden, hidden, 1)

    def forward(self, passage, question):
        p = self.emb(passage)
        q = self.emb(question)
        p = p + self.match(p, q)
        q_vec = self.pool(q).unsqueeze(1).expand_as(p)
        return self.start(p.contiguous(), q_vec.contiguous()).squeeze(-1)


def train_step(model, optimizer, passage, question, start_idx):
    model.train()
    optimizer.zero_grad()
    logits = model(passage, question)
    loss = F.cross_entropy(logits, start_idx)
    loss.backward()
    torch.nn.utils.clip_grad_norm_(model.parameters(), 10.0)
    optimizer.step()
    return loss.item()


if __name__ == "__main__":
    torch.manual_seed(0)
    net = SpanReader(vocab=500)
    opt = torch.optim.Adamax(net.parameters())
    for _ in range(3):
        p = torch.randint(0, 500, (4, 30))
        q = torch.randint(0, 500, (4, 8))
        s = torch.randint(0, 30, (4,))
        print(train_step(net, opt, p, q, s))
