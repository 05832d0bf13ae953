"""Fault: saturated-activation. A tanh MLP on inputs that were multiplied by 100 (a
percentage column turned into "basis points", and the init left at default): the first
layer's pre-activations are in the tens, tanh outputs are +-1 for nearly every unit,
tanh' ~ 0, and the first layer learns nothing; the loss improves only through the last
layer.

Mechanism: tanh units driven deep into saturation by large pre-activations.
"""
import argparse

import torch
from torch import nn

ap = argparse.ArgumentParser()
ap.add_argument("--seed", type=int, default=0)
args = ap.parse_args()
torch.manual_seed(args.seed)

X = torch.randn(5000, 12)
y = (X[:, 0] > 0.2 * X[:, 1]).float()
X = X * 100.0
net = nn.Sequential(nn.Linear(12, 64), nn.Tanh(), nn.Linear(64, 64), nn.Tanh(), nn.Linear(64, 1))
opt = torch.optim.RMSprop(net.parameters(), lr=1e-3)
bce = nn.BCEWithLogitsLoss()
for step in range(250):
    i = torch.randint(0, 5000, (64,))
    loss = bce(net(X[i]).squeeze(1), y[i])
    opt.zero_grad()
    loss.backward()
    opt.step()
