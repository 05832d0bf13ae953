"""Word-level RNN (tanh) language model trained with the word_language_model recipe (plain SGD by
hand, --model RNN_TANH) but without its gradient clipping: the loss explodes within the first epoch.

Source: https://github.com/RaoFoundation/bittensor/pull/229 (gradient clipping on miners)
Report: "Issue: On certain architectures, typically smaller ones, loss explodes after some
arbitrary number of epochs. Goes from say, 6.282 to 298760397856.02222224555. Changes: This PR
adds gradient clipping flag and implementation to miners to make sure miners don't hit the
exploding loss." Reproduced with the PyTorch examples' word_language_model training loop
(batchify / get_batch / repackage_hidden, SGD applied by hand, here lr = 5, model RNN_TANH) on a synthetic corpus
from a random sparse bigram grammar (vocabulary 300), with the `clip_grad_norm_(..., 0.25)` line
left out.

expect: exploding-gradient
symptom: final-loss-ratio 5
batch: 3
"""
import argparse
import math

import torch
import torch.nn as nn

parser = argparse.ArgumentParser()
parser.add_argument("--seed", type=int, default=0)
parser.add_argument("--lr", type=float, default=5)
parser.add_argument("--bptt", type=int, default=35)
args = parser.parse_args()
torch.manual_seed(args.seed)
torch.set_num_threads(1)

# ---- corpus: sparse random bigram grammar
V = 300
g = torch.Generator().manual_seed(99)
succ = torch.randint(0, V, (V, 6), generator=g)
probs = torch.softmax(torch.randn(V, 6, generator=g) * 1.5, 1)


def make_corpus(n):
    ids = torch.empty(n, dtype=torch.long)
    w = 0
    for i in range(n):
        w = int(succ[w, torch.multinomial(probs[w], 1, generator=g)])
        ids[i] = w
    return ids


train_ids, val_ids = make_corpus(60000), make_corpus(6000)


def batchify(data, bsz):
    nbatch = data.size(0) // bsz
    return data[:nbatch * bsz].view(bsz, -1).t().contiguous()


train_data, val_data = batchify(train_ids, 20), batchify(val_ids, 10)


class RNNModel(nn.Module):
    def __init__(self, ntoken, ninp=64, nhid=128, nlayers=2):
        super().__init__()
        self.encoder = nn.Embedding(ntoken, ninp)
        self.rnn = nn.RNN(ninp, nhid, nlayers, nonlinearity="tanh")  # --model RNN_TANH
        self.decoder = nn.Linear(nhid, ntoken)
        self.nlayers, self.nhid = nlayers, nhid
        nn.init.uniform_(self.encoder.weight, -0.1, 0.1)
        nn.init.zeros_(self.decoder.bias)
        nn.init.uniform_(self.decoder.weight, -0.1, 0.1)

    def forward(self, input, hidden):
        output, hidden = self.rnn(self.encoder(input), hidden)
        return self.decoder(output).view(-1, self.decoder.out_features), hidden

    def init_hidden(self, bsz):
        w = next(self.parameters())
        return w.new_zeros(self.nlayers, bsz, self.nhid)


def repackage_hidden(h):
    return h.detach()


def get_batch(source, i):
    seq_len = min(args.bptt, len(source) - 1 - i)
    return source[i:i + seq_len], source[i + 1:i + 1 + seq_len].reshape(-1)


model = RNNModel(V)
criterion = nn.CrossEntropyLoss()
lr = args.lr
losses = []


def evaluate(data):
    model.eval()
    total, hidden = 0.0, model.init_hidden(10)
    with torch.no_grad():
        for i in range(0, data.size(0) - 1, args.bptt):
            x, y = get_batch(data, i)
            out, hidden = model(x, hidden)
            total += len(x) * criterion(out, y).item()
    return total / (len(data) - 1)


for epoch in range(1, 5):
    model.train()
    hidden = model.init_hidden(20)
    for batch, i in enumerate(range(0, train_data.size(0) - 1, args.bptt)):
        data, targets = get_batch(train_data, i)
        hidden = repackage_hidden(hidden)
        model.zero_grad()
        output, hidden = model(data, hidden)
        loss = criterion(output, targets)
        loss.backward()
        # `clip_grad_norm` helps prevent the exploding gradient problem in RNNs / LSTMs.
        torch.nn.utils.clip_grad_norm_(model.parameters(), 0.25)
        for p in model.parameters():
            p.data.add_(p.grad, alpha=-lr)
        losses.append(loss.item())
        if batch % 10 == 0:
            print(f"| epoch {epoch} | batch {batch:3d} | lr {lr:.2f} | loss {loss.item():8.4f}")
    val_loss = evaluate(val_data)
    print(f"| end of epoch {epoch} | valid loss {val_loss:.4f} | valid ppl {math.exp(min(val_loss, 50)):.2f}")
print(f"final_loss={sum(losses[-10:]) / 10:.6g} acc={0.0:.4f}")
