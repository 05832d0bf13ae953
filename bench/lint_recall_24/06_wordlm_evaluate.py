"""Word-level LSTM language model: batching helpers and evaluation."""
import math

import torch
import torch.nn as nn
from torch.autograd import Variable

BPTT = 35
EVAL_BATCH = 10


class RNNModel(nn.Module):
    def __init__(self, ntoken, ninp=200, nhid=200, nlayers=2, dropout=0.2):
        super().__init__()
        self.drop = nn.Dropout(dropout)
        self.encoder = nn.Embedding(ntoken, ninp)
        self.rnn = nn.LSTM(ninp, nhid, nlayers, dropout=dropout)
        self.decoder = nn.Linear(nhid, ntoken)
        self.nhid, self.nlayers = nhid, nlayers

    def forward(self, inp, hidden):
        out, hidden = self.rnn(self.drop(self.encoder(inp)), hidden)
        return self.decoder(self.drop(out)), hidden

    def init_hidden(self, bsz):
        w = next(self.parameters())
        return (w.new_zeros(self.nlayers, bsz, self.nhid), w.new_zeros(self.nlayers, bsz, self.nhid))


def repackage_hidden(h):
    if isinstance(h, torch.Tensor):
        return h.detach()
    return tuple(repackage_hidden(v) for v in h)


def get_batch(source, i, evaluation=False):
    seq_len = min(BPTT, len(source) - 1 - i)
    data = Variable(source[i:i + seq_len], volatile=evaluation)  # expect: volatile-variable
    target = Variable(source[i + 1:i + 1 + seq_len].reshape(-1))
    return data, target


def evaluate(model, data_source, ntokens):
    model.eval()
    criterion = nn.CrossEntropyLoss()
    total_loss = 0.0
    hidden = model.init_hidden(EVAL_BATCH)
    for i in range(0, data_source.size(0) - 1, BPTT):
        data, targets = get_batch(data_source, i, evaluation=True)
        output, hidden = model(data, hidden)
        total_loss += len(data) * criterion(output.view(-1, ntokens), targets).item()
        hidden = repackage_hidden(hidden)
    avg = total_loss / len(data_source)
    return avg, math.exp(avg)
