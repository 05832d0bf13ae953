# Source: https://github.com/NTMC-Community/MatchZoo-py/pull/69
# Pitfall: the listwise ranking loss takes torch.log of F.softmax(logits) in two steps; when a
# document's probability underflows to 0 the log is -inf and the loss turns NaN.
# Reproduced in our own words, not the original code.
import torch
from torch import nn
import torch.nn.functional as F


class ListwiseRankLoss(nn.Module):
    def __init__(self, num_neg=4):
        super().__init__()
        self.num_neg = num_neg

    def forward(self, scores, relevance):
        group = self.num_neg + 1
        scores = scores.view(-1, group)
        relevance = relevance.float().view(-1, group)
        log_p = torch.log(F.softmax(scores, dim=-1))  # expect: log-of-softmax
        return -torch.mean(torch.sum(relevance * log_p, dim=-1))


class DualEncoderScorer(nn.Module):
    def __init__(self, vocab=20000, dim=128):
        super().__init__()
        self.emb = nn.EmbeddingBag(vocab, dim, mode="mean")
        self.proj = nn.Linear(dim, dim)

    def forward(self, query_ids, doc_ids):
        q = self.proj(self.emb(query_ids))
        d = self.proj(self.emb(doc_ids))
        return (q * d).sum(-1, keepdim=True)


def train_epoch(model, criterion, optimizer, batches):
    model.train()
    running = 0.0
    for query_ids, doc_ids, labels in batches:
        optimizer.zero_grad()
        loss = criterion(model(query_ids, doc_ids), labels)
        loss.backward()
        optimizer.step()
        running += loss.item()
    return running / len(batches)


if __name__ == "__main__":
    model = DualEncoderScorer()
    crit = ListwiseRankLoss(num_neg=4)
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    batches = []
    for _ in range(4):
        q = torch.randint(0, 20000, (40, 8))
        d = torch.randint(0, 20000, (40, 30))
        y = torch.zeros(40)
        y[::5] = 1
        batches.append((q, d, y))
    print(train_epoch(model, crit, opt, batches))
