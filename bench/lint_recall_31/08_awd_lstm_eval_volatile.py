"""AWD-LSTM style language model: evaluation pass over a held-out corpus."""
import math

import torch
import torch.nn as nn
from torch.autograd import Variable


class RNNModel(nn.Module):
    def __init__(self, ntoken, ninp=400, nhid=1150, nlayers=3, dropout=0.4):
        super().__init__()
        self.encoder = nn.Embedding(ntoken, ninp)
        self.rnn = nn.LSTM(ninp, nhid, nlayers, dropout=dropout)
        self.drop = nn.Dropout(dropout)
        self.decoder = nn.Linear(nhid, ntoken)
        self.nlayers, self.nhid = nlayers, nhid

    def forward(self, inp, hidden):
        emb = self.drop(self.encoder(inp))
        output, hidden = self.rnn(emb, hidden)
        return self.decoder(self.drop(output)), hidden

    def init_hidden(self, bsz):
        weight = next(self.parameters())
        return (weight.new_zeros(self.nlayers, bsz, self.nhid), weight.new_zeros(self.nlayers, bsz, self.nhid))


def batchify(data, bsz):
    nbatch = data.size(0) // bsz
    return data[: nbatch * bsz].view(bsz, -1).t().contiguous()


def get_batch(source, i, bptt):
    seq_len = min(bptt, len(source) - 1 - i)
    return source[i:i + seq_len], source[i + 1:i + 1 + seq_len].reshape(-1)


def evaluate(model, data_source, ntokens, batch_size=10, bptt=70):
    model.eval()
    total_loss = 0.0
    criterion = nn.CrossEntropyLoss()
    hidden = model.init_hidden(batch_size)
    for i in range(0, data_source.size(0) - 1, bptt):
        data, targets = get_batch(data_source, i, bptt)
        data = Variable(data, volatile=True)  # expect: volatile-variable
        output, hidden = model(data, hidden)
        total_loss += len(data) * criterion(output.view(-1, ntokens), targets).item()
        hidden = tuple(h.detach() for h in hidden)
    return total_loss / len(data_source)


if __name__ == "__main__":
    ntokens = 10000
    corpus = torch.randint(0, ntokens, (20000,))
    val_data = batchify(corpus, 10)
    lm = RNNModel(ntokens)
    val_loss = evaluate(lm, val_data, ntokens)
    print(f"val loss {val_loss:.2f} | ppl {math.exp(val_loss):.2f}")
