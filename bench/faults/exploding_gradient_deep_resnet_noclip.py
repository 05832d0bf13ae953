"""Fault: exploding-gradient. A deep residual MLP (16 blocks, x + f(x), no normalisation,
default init) on a regression target in raw units, trained with SGD+momentum and no
clip_grad_norm_. Each residual block adds its output to the stream, so the forward
scale and the backward gain compound across blocks: the gradient norm is thousands of
times what the same net with LayerNorm shows, and it spikes whenever a batch has a few
large targets.

Mechanism: gain compounding over depth with no normalisation and no gradient clipping.
"""
import argparse

import torch
from torch import nn


class Block(nn.Module):
    def __init__(self, d):
        super().__init__()
        self.fc1 = nn.Linear(d, d)
        self.fc2 = nn.Linear(d, d)

    def forward(self, x):
        return x + self.fc2(torch.relu(self.fc1(x)))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--seed", type=int, default=0)
    a = ap.parse_args()
    torch.manual_seed(a.seed)
    d = 64
    model = nn.Sequential(nn.Linear(16, d), *[Block(d) for _ in range(16)], nn.Linear(d, 1))
    opt = torch.optim.SGD(model.parameters(), lr=1e-4, momentum=0.9)
    X = torch.randn(4000, 16)
    y = 50 * X[:, 0] + 20 * X[:, 1] ** 2
    for step in range(200):
        i = torch.randint(0, 4000, (32,))
        loss = nn.functional.mse_loss(model(X[i]).squeeze(-1), y[i])
        opt.zero_grad()
        loss.backward()
        opt.step()


if __name__ == "__main__":
    main()
