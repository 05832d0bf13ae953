"""Fault: missing-zero-grad. zero_grad() is called once per epoch instead of once per
step (it sits one indentation level too far out). Within an epoch every step uses the
running sum of gradients; with Adam the normalised step hides the growing size, but the
direction is a stale average of everything seen this epoch and the loss stalls and
wobbles.

Mechanism: gradients accumulate across steps within each epoch.
"""
import argparse

import torch
import torch.nn.functional as F
from torch import nn
from torch.utils.data import DataLoader, Dataset


class Rings(Dataset):
    def __init__(self, n, seed):
        g = torch.Generator().manual_seed(seed)
        r = torch.rand(n, generator=g) * 3
        t = torch.rand(n, generator=g) * 6.283
        self.x = torch.stack([r * torch.cos(t), r * torch.sin(t)], 1) + 0.05 * torch.randn(n, 2, generator=g)
        self.y = (r > 1.5).float()

    def __len__(self):
        return len(self.y)

    def __getitem__(self, i):
        return self.x[i], self.y[i]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--seed", type=int, default=0)
    a = ap.parse_args()
    torch.manual_seed(a.seed)
    dl = DataLoader(Rings(6000, a.seed), batch_size=32, shuffle=True)
    model = nn.Sequential(nn.Linear(2, 64), nn.Tanh(), nn.Linear(64, 64), nn.Tanh(), nn.Linear(64, 1))
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    for epoch in range(2):
        opt.zero_grad()
        for x, y in dl:
            loss = F.binary_cross_entropy_with_logits(model(x).squeeze(1), y)
            loss.backward()
            opt.step()


if __name__ == "__main__":
    main()
