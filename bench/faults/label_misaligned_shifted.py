"""Fault: label-misaligned. Off-by-one between inputs and targets: the script builds
(window, label) pairs from a table, but the label list is taken from row i+1 while the
features come from row i (a classic mistake when converting a "next event" dataset, or
after dropping the header row of one file only). Every target belongs to the neighbouring
sample; since rows are independent, the signal is gone and the loss stays at the prior
entropy (~0.69 for this balanced binary task).

Mechanism: labels shifted by one position relative to their inputs.
"""
import argparse

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F


class TabNet(nn.Module):
    def __init__(self, d):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(d, 64), nn.SiLU(), nn.Linear(64, 64), nn.SiLU(), nn.Linear(64, 1))

    def forward(self, x):
        return self.net(x).squeeze(-1)


def build(seed, n=8000, d=20):
    rng = np.random.default_rng(seed)
    X = rng.standard_normal((n, d)).astype(np.float32)
    w = rng.standard_normal(d)
    y = ((X @ w + 0.5 * rng.standard_normal(n)) > 0).astype(np.float32)
    # "the label file has a header row": drop the first line of labels only
    return torch.from_numpy(X[:-1]), torch.from_numpy(y[1:])


def train(seed, steps):
    torch.manual_seed(seed)
    X, y = build(seed)
    model = TabNet(X.shape[1])
    opt = torch.optim.RMSprop(model.parameters(), lr=1e-3)
    sched = torch.optim.lr_scheduler.CosineAnnealingLR(opt, T_max=steps)
    for step in range(steps):
        idx = torch.randint(0, len(X), (128,))
        loss = F.binary_cross_entropy_with_logits(model(X[idx]), y[idx])
        opt.zero_grad()
        loss.backward()
        opt.step()
        sched.step()
        if step % 25 == 0:
            print(f"step {step:4d} loss {loss.item():.4f} lr {sched.get_last_lr()[0]:.2e}")


if __name__ == "__main__":
    ap = argparse.ArgumentParser()
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--steps", type=int, default=300)
    a = ap.parse_args()
    train(a.seed, a.steps)
