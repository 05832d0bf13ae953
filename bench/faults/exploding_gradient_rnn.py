"""Fault: exploding-gradient. A vanilla tanh RNN over 100-step sequences (sum of the
inputs, predicted at the end) with a recurrent matrix initialised orthogonal*1.8 "to
remember longer", trained with SGD and no gradient clipping. Backpropagation through
time multiplies by the recurrent Jacobian 100 times: gradient norms jump by orders of
magnitude from batch to batch, and the weights are thrown around.

Mechanism: recurrent net without clipping, recurrent gain > 1.
"""
import argparse

import torch
from torch import nn

ap = argparse.ArgumentParser()
ap.add_argument("--seed", type=int, default=0)
ap.add_argument("--steps", type=int, default=150)
args = ap.parse_args()
torch.manual_seed(args.seed)


class Summer(nn.Module):
    def __init__(self):
        super().__init__()
        self.rnn = nn.RNN(1, 64, batch_first=True)
        nn.init.orthogonal_(self.rnn.weight_hh_l0, gain=1.8)
        self.out = nn.Linear(64, 1)

    def forward(self, x):
        h, _ = self.rnn(x)
        return self.out(h[:, -1]).squeeze(-1)


model = Summer()
opt = torch.optim.SGD(model.parameters(), lr=0.01)
for step in range(args.steps):
    x = torch.randn(32, 100, 1) * 0.5
    y = x.sum((1, 2)) / 10
    loss = nn.functional.mse_loss(model(x), y)
    opt.zero_grad()
    loss.backward()
    opt.step()
