"""Stacked LSTM cells kept in a plain Python list: model.parameters() misses them, they never train.

Source: https://github.com/ikostrikov/pytorch-meta-optimizer/issues/11 (LSTM weights not optimised)
Report: "The LayerNormLSTMCell modules initialised in the MetaOptimizer class are not properly
registered as parameters ... Appending them to the self.lstms list will not add their trainable
parameters to the model parameter list ... the current version will not train the LSTM weights
at all"; quick fix: build self.lstms as nn.Sequential(*[LayerNormLSTMCell(...)]). Reproduced
with the same cell (LSTMCell + LayerNorm) stacked in a list, trained on a sequence task.

expect: params-not-updated
symptom: final-loss-ratio 1.5
batch: 2
"""
import argparse

import torch
import torch.nn as nn

ap = argparse.ArgumentParser()
ap.add_argument("--seed", type=int, default=0)
args = ap.parse_args()
torch.manual_seed(args.seed)


class LayerNormLSTMCell(nn.LSTMCell):
    def __init__(self, input_size, hidden_size):
        super().__init__(input_size, hidden_size)
        self.ln_h = nn.LayerNorm(hidden_size)

    def forward(self, x, state):
        h, c = super().forward(x, state)
        return self.ln_h(h), c


class SeqModel(nn.Module):
    def __init__(self, hidden=32, num_layers=2):
        super().__init__()
        self.hidden = hidden
        self.linear1 = nn.Linear(2, hidden)
        self.lstms = []
        for i in range(num_layers):
            self.lstms.append(LayerNormLSTMCell(hidden, hidden))
        self.linear2 = nn.Linear(hidden, 1)

    def forward(self, xs):
        n, T, _ = xs.shape
        states = [(xs.new_zeros(n, self.hidden), xs.new_zeros(n, self.hidden)) for _ in self.lstms]
        for t in range(T):
            h = self.linear1(xs[:, t])
            for i, cell in enumerate(self.lstms):
                states[i] = cell(h, states[i])
                h = states[i][0]
        return self.linear2(h).squeeze(1)


def batch(n, T=12):
    # a value stream and a marker stream; target: the sum of the values at the marked steps
    v = torch.randn(n, T)
    mark = (torch.rand(n, T).argsort(1) < 2).float()
    return torch.stack([v, mark], 2), (v * mark).sum(1)


model = SeqModel()
opt = torch.optim.Adam(model.parameters(), lr=5e-3)
losses = []
for it in range(200):
    x, y = batch(64)
    loss = ((model(x) - y) ** 2).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
    losses.append(loss.item())
print(f"final_loss={sum(losses[-20:]) / 20:.6g} acc={0.0:.4f}")
