"""Fault: lr-too-high. A small CNN on 16x16 images with SGD+momentum at lr=0.8 ("the
paper used 0.1 with batch 256, we use batch 32, so... more?"). The first updates
overshoot, the loss climbs, the gradients grow with the weights and the run ends in
NaN within a few dozen steps.

Mechanism: SGD+momentum learning rate far above the stable range.
"""
import argparse

import torch
from torch import nn
import torch.nn.functional as F


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.c1 = nn.Conv2d(1, 16, 3, padding=1)
        self.c2 = nn.Conv2d(16, 32, 3, padding=1)
        self.fc = nn.Linear(32 * 4 * 4, 10)

    def forward(self, x):
        x = F.max_pool2d(F.relu(self.c1(x)), 2)
        x = F.max_pool2d(F.relu(self.c2(x)), 2)
        return self.fc(x.flatten(1))


def batches(g, n_steps, bs=32):
    protos = torch.randn(10, 1, 16, 16, generator=g)
    for _ in range(n_steps):
        y = torch.randint(0, 10, (bs,), generator=g)
        yield protos[y] + 0.8 * torch.randn(bs, 1, 16, 16, generator=g), y


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--lr", type=float, default=0.8)
    a = ap.parse_args()
    g = torch.Generator().manual_seed(a.seed)
    torch.manual_seed(a.seed)
    net = Net()
    opt = torch.optim.SGD(net.parameters(), lr=a.lr, momentum=0.9)
    for i, (x, y) in enumerate(batches(g, 200)):
        loss = F.cross_entropy(net(x), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
        if i % 50 == 0:
            print(i, loss.item())


if __name__ == "__main__":
    main()
