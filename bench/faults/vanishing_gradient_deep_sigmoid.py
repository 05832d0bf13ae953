"""Fault: vanishing-gradient. A 12-layer MLP with sigmoid activations and default
(Kaiming-uniform, a=sqrt(5)) init, no normalisation and no residual connections: the
"classic" deep net. sigmoid' <= 0.25, so each layer scales the backward signal by ~0.1:
the first layers' gradients are ~1e-9 of the last layer's, only the top layers learn,
and the loss barely improves on the majority prediction.

Mechanism: saturating activations in a deep plain network shrink the gradient per layer.
"""
import argparse

import torch
from torch import nn
from torch.utils.data import DataLoader, TensorDataset

ap = argparse.ArgumentParser()
ap.add_argument("--seed", type=int, default=0)
ap.add_argument("--epochs", type=int, default=2)
args = ap.parse_args()
torch.manual_seed(args.seed)

X = torch.randn(6000, 32)
y = ((X[:, 0] * X[:, 1] + X[:, 2].sin()) > 0).long()
mods = [nn.Linear(32, 64), nn.Sigmoid()]
for _ in range(11):
    mods += [nn.Linear(64, 64), nn.Sigmoid()]
mods.append(nn.Linear(64, 2))
model = nn.Sequential(*mods)
opt = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)
for epoch in range(args.epochs):
    for xb, yb in DataLoader(TensorDataset(X, y), batch_size=64, shuffle=True):
        loss = nn.functional.cross_entropy(model(xb), yb)
        opt.zero_grad()
        loss.backward()
        opt.step()
