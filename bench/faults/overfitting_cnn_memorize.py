"""Fault: overfitting. A CNN trained for 40 epochs on 256 small images with random
horizontal structure and 20 % label noise, validated each epoch. The training loss falls
towards zero as the net memorises the noisy labels; the validation loss turns upward
after the first epochs and keeps rising.

Mechanism: small noisy training set, no regularisation, no early stopping.
"""
import argparse

import torch
import torch.nn.functional as F
from torch import nn


def data(g, n):
    y = torch.randint(0, 3, (n,), generator=g)
    x = torch.randn(n, 1, 12, 12, generator=g)
    for c in range(3):
        x[y == c, :, 4 * c:4 * c + 4, :] += 0.7
    noisy = torch.rand(n, generator=g) < 0.2
    y = torch.where(noisy, torch.randint(0, 3, (n,), generator=g), y)
    return x, y


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--seed", type=int, default=0)
    a = ap.parse_args()
    g = torch.Generator().manual_seed(a.seed)
    torch.manual_seed(a.seed)
    xtr, ytr = data(g, 256)
    xva, yva = data(g, 512)
    net = nn.Sequential(nn.Conv2d(1, 32, 3, padding=1), nn.ReLU(), nn.Conv2d(32, 32, 3, padding=1), nn.ReLU(),
                        nn.Flatten(), nn.Linear(32 * 144, 128), nn.ReLU(), nn.Linear(128, 3))
    opt = torch.optim.Adam(net.parameters(), lr=1e-3)
    for epoch in range(40):
        perm = torch.randperm(256, generator=g)
        for k in range(0, 256, 64):
            j = perm[k:k + 64]
            loss = F.cross_entropy(net(xtr[j]), ytr[j])
            opt.zero_grad()
            loss.backward()
            opt.step()
        with torch.no_grad():
            val = F.cross_entropy(net(xva), yva)


if __name__ == "__main__":
    main()
