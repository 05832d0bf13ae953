"""Fault: dataloader-bottleneck. A Dataset whose __getitem__ decodes and augments each
sample in Python (here: a per-sample loop that builds a 64x64 image from a stroke list
and blurs it) with num_workers=0. The model is small, so most of every step is spent
waiting for the next batch in the main process.

Mechanism: expensive per-sample Python preprocessing in the main process.
"""
import argparse
import math

import torch
from torch import nn
from torch.utils.data import DataLoader, Dataset


class Strokes(Dataset):
    def __init__(self, n, seed):
        g = torch.Generator().manual_seed(seed)
        self.angles = torch.rand(n, generator=g) * math.pi
        self.y = (self.angles > math.pi / 2).long()

    def __len__(self):
        return len(self.y)

    def __getitem__(self, i):
        img = torch.zeros(32, 32)
        a = float(self.angles[i])
        for t in range(60):  # rasterise the stroke pixel by pixel
            r = t / 4
            x, y = int(16 + r * math.cos(a)) % 32, int(16 + r * math.sin(a)) % 32
            img[y, x] = 1.0
        for _ in range(2):  # box blur, by hand
            img = (img + img.roll(1, 0) + img.roll(-1, 0) + img.roll(1, 1) + img.roll(-1, 1)) / 5
        return img[None], self.y[i]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--seed", type=int, default=0)
    a = ap.parse_args()
    torch.manual_seed(a.seed)
    dl = DataLoader(Strokes(3200, a.seed), batch_size=32, shuffle=True, num_workers=0)
    model = nn.Sequential(nn.Flatten(), nn.Linear(1024, 2))
    opt = torch.optim.SGD(model.parameters(), lr=0.05)
    for x, y in dl:
        loss = nn.functional.cross_entropy(model(x), y)
        opt.zero_grad()
        loss.backward()
        opt.step()


if __name__ == "__main__":
    main()
