"""Word-level language model (LSTM) on a tokenized corpus, truncated BPTT over fixed windows."""
import math

import torch
import torch.nn as nn
import torch.nn.functional as F


class RNNModel(nn.Module):
    def __init__(self, ntoken, ninp=200, nhid=200, nlayers=2, dropout=0.2):
        super().__init__()
        self.drop = nn.Dropout(dropout)
        self.encoder = nn.Embedding(ntoken, ninp)
        self.rnn = nn.LSTM(ninp, nhid, nlayers, dropout=dropout)
        self.decoder = nn.Linear(nhid, ntoken)
        self.nlayers, self.nhid, self.ntoken = nlayers, nhid, ntoken

    def forward(self, inp, hidden):
        emb = self.drop(self.encoder(inp))
        output, hidden = self.rnn(emb, hidden)
        decoded = self.decoder(self.drop(output)).view(-1, self.ntoken)
        return F.log_softmax(decoded, dim=1), hidden

    def init_hidden(self, bsz):
        weight = next(self.parameters())
        return (weight.new_zeros(self.nlayers, bsz, self.nhid), weight.new_zeros(self.nlayers, bsz, self.nhid))


def repackage_hidden(h):
    if isinstance(h, torch.Tensor):
        return h.detach()
    return tuple(repackage_hidden(v) for v in h)


def batchify(data, bsz):
    nbatch = data.size(0) // bsz
    return data[:nbatch * bsz].view(bsz, -1).t().contiguous()


def get_batch(source, i, bptt=35):
    seq_len = min(bptt, len(source) - 1 - i)
    return source[i:i + seq_len], source[i + 1:i + 1 + seq_len].reshape(-1)


def train_epoch(model, train_data, optimizer, batch_size=20, bptt=35, clip=0.25):
    model.train()
    hidden = model.init_hidden(batch_size)
    total = 0.0
    for batch, i in enumerate(range(0, train_data.size(0) - 1, bptt)):
        data, targets = get_batch(train_data, i, bptt)
        hidden = repackage_hidden(hidden)
        optimizer.zero_grad()
        output, hidden = model(data, hidden)
        loss = F.cross_entropy(output, targets)  # expect: softmax-before-cross-entropy
        loss.backward()
        torch.nn.utils.clip_grad_norm_(model.parameters(), clip)
        optimizer.step()
        total += loss.item()
        if batch % 200 == 0 and batch > 0:
            cur = total / 200
            print(f"batch {batch}: loss {cur:.2f} ppl {math.exp(cur):.1f}")
            total = 0.0


if __name__ == "__main__":
    corpus = torch.randint(0, 10000, (200000,))
    train_data = batchify(corpus, 20)
    lm = RNNModel(10000)
    opt = torch.optim.Adam(lm.parameters(), lr=1e-3)
    for epoch in range(2):
        train_epoch(lm, train_data, opt)
