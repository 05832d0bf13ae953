"""Fault: bad-init. A custom init function sets every Linear weight to
normal(0, 0.01) (a number copied from an old tutorial) in an 8-layer tanh network of
width 128. Each layer shrinks the activations by ~0.01*sqrt(128) = 0.11: by the last
layer the signal is ~1e-8 of the input, the output is constant, the gradients of the
early layers are ~1e-8 of the last's, and the loss sits at its starting value.

Mechanism: initialisation scale far too small; activations shrink with depth.
"""
import argparse

import torch
from torch import nn


def init_weights(m):
    if isinstance(m, nn.Linear):
        m.weight.data.normal_(0.0, 0.01)
        m.bias.data.zero_()


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--seed", type=int, default=0)
    a = ap.parse_args()
    torch.manual_seed(a.seed)
    blocks = [nn.Linear(20, 128), nn.Tanh()]
    for _ in range(7):
        blocks += [nn.Linear(128, 128), nn.Tanh()]
    net = nn.Sequential(*blocks, nn.Linear(128, 1))
    net.apply(init_weights)
    opt = torch.optim.SGD(net.parameters(), lr=0.05, momentum=0.9)
    X = torch.randn(5000, 20)
    y = torch.sin(X[:, 0]) + X[:, 1] * X[:, 2]
    for step in range(250):
        i = torch.randint(0, 5000, (64,))
        loss = ((net(X[i]).squeeze(-1) - y[i]) ** 2).mean()
        opt.zero_grad()
        loss.backward()
        opt.step()


if __name__ == "__main__":
    main()
