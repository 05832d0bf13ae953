"""expect: healthy. A small CNN with BatchNorm on synthetic 16x16 images, SGD+momentum,
weight decay, a cosine learning-rate schedule, per-epoch validation."""
import argparse

import torch
import torch.nn.functional as F
from torch import nn


def data(g, n):
    protos = torch.randn(5, 1, 16, 16, generator=torch.Generator().manual_seed(123))
    y = torch.randint(0, 5, (n,), generator=g)
    return protos[y] + torch.randn(n, 1, 16, 16, generator=g), y


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--seed", type=int, default=0)
    a = ap.parse_args()
    g = torch.Generator().manual_seed(a.seed)
    torch.manual_seed(a.seed)
    xtr, ytr = data(g, 3000)
    xva, yva = data(g, 500)
    net = nn.Sequential(nn.Conv2d(1, 16, 3, padding=1), nn.BatchNorm2d(16), nn.ReLU(), nn.MaxPool2d(2),
                        nn.Conv2d(16, 32, 3, padding=1), nn.BatchNorm2d(32), nn.ReLU(), nn.MaxPool2d(2),
                        nn.Flatten(), nn.Linear(32 * 16, 5))
    epochs, bs = 3, 50
    opt = torch.optim.SGD(net.parameters(), lr=0.05, momentum=0.9, weight_decay=5e-4)
    sched = torch.optim.lr_scheduler.CosineAnnealingLR(opt, T_max=epochs * (3000 // bs))
    for epoch in range(epochs):
        net.train()
        perm = torch.randperm(3000, generator=g)
        for k in range(0, 3000, bs):
            j = perm[k:k + bs]
            loss = F.cross_entropy(net(xtr[j]), ytr[j])
            opt.zero_grad()
            loss.backward()
            opt.step()
            sched.step()
        net.eval()
        with torch.no_grad():
            val = F.cross_entropy(net(xva), yva)
        print(epoch, float(val))


if __name__ == "__main__":
    main()
