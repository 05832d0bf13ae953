"""Differentiable architecture search for a recurrent cell on a word-level language model."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class SearchRNN(nn.Module):
    def __init__(self, ntoken, ninp=64, nhid=64):
        super().__init__()
        self.encoder = nn.Embedding(ntoken, ninp)
        self.rnn = nn.GRU(ninp, nhid)
        self.arch_weights = nn.Parameter(1e-3 * torch.randn(4))
        self.decoder = nn.Linear(nhid, ntoken)
        self.nhid = nhid

    def init_hidden(self, bsz):
        return torch.zeros(1, bsz, self.nhid)

    def forward(self, inp, hidden):
        emb = self.encoder(inp) * F.softmax(self.arch_weights, dim=0).sum()
        output, hidden = self.rnn(emb, hidden)
        return self.decoder(output), hidden


def get_batch(source, i, bptt):
    seq_len = min(bptt, len(source) - 1 - i)
    return source[i:i + seq_len], source[i + 1:i + 1 + seq_len]


def train_search(model, train_data, ntokens, bptt=20, lr=20.0, clip=0.25):
    model.train()
    optimizer = torch.optim.SGD(model.parameters(), lr=lr, weight_decay=5e-7)
    hidden = model.init_hidden(train_data.size(1))
    total_loss = 0.0
    for i in range(0, train_data.size(0) - 1, bptt):
        data, targets = get_batch(train_data, i, bptt)
        optimizer.zero_grad()
        log_prob, hidden = model(data, hidden)  # expect: hidden-state-not-detached
        loss = F.cross_entropy(log_prob.view(-1, ntokens), targets.reshape(-1))
        loss.backward()
        torch.nn.utils.clip_grad_norm_(model.parameters(), clip)
        optimizer.step()
        total_loss += loss.item()
    return total_loss


if __name__ == "__main__":
    ntok = 200
    corpus = torch.randint(0, ntok, (201, 10))
    print(train_search(SearchRNN(ntok), corpus, ntok))
