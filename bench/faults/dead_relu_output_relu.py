"""Fault: dead-relu. A regression head built by copying the hidden block, ReLU included:
the network ends in nn.ReLU(). The targets are standardized log-returns, mostly
negative over this window. The MSE gradient pushes every output down; once an output
unit's pre-activation is negative for the whole batch it outputs 0, passes no gradient,
and never comes back: the last ReLU is dead and the loss freezes at mean(y^2).

Mechanism: a ReLU on the output layer (and inside), driven below zero for all inputs.
"""
import argparse

import torch
from torch import nn
from torch.utils.data import DataLoader, TensorDataset


def block(i, o):
    return nn.Sequential(nn.Linear(i, o), nn.ReLU())


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--seed", type=int, default=0)
    a = ap.parse_args()
    torch.manual_seed(a.seed)
    X = torch.randn(6000, 10)
    y = -1.0 + 0.5 * X[:, 0] - 0.3 * X[:, 1] ** 2 + 0.1 * torch.randn(6000)   # mostly below zero
    model = nn.Sequential(block(10, 64), block(64, 64), block(64, 1))       # the last block keeps its ReLU
    opt = torch.optim.Adam(model.parameters(), lr=3e-3)
    for epoch in range(2):
        for xb, yb in DataLoader(TensorDataset(X, y), batch_size=64, shuffle=True):
            loss = nn.functional.mse_loss(model(xb).squeeze(1), yb)
            opt.zero_grad()
            loss.backward()
            opt.step()


if __name__ == "__main__":
    main()
