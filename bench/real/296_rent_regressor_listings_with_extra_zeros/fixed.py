"""Flat-listing rent regressor -- fixed by cleaning the house first: listings with an implausible rent
(50 thousand a month or more, the typed-in extra zeros) are dropped before training (nothing else
changed).
"""
import argparse

import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset

ap = argparse.ArgumentParser()
ap.add_argument("--seed", type=int, default=0)
args = ap.parse_args()
torch.manual_seed(args.seed)
torch.set_num_threads(1)


def listings(n, typos=0):
    x = torch.randn(n, 8)
    rent = 1.4 + 0.45 * x[:, 0] + 0.15 * x[:, 1] + 0.25 * torch.tanh(x[:, 2]) + 0.1 * x[:, 3] * x[:, 0]
    rent = (rent + 0.08 * torch.randn(n)).clamp(min=0.4)
    if typos:
        rows = torch.randperm(n)[:typos]
        rent[rows] *= torch.where(torch.rand(typos) < 0.5, 100.0, 1000.0)
    return x, rent


def plausible(x, rent):
    ok = rent < 50.0
    return x[ok], rent[ok]


x_tr, y_tr = plausible(*listings(5000, typos=25))
x_te, y_te = listings(1500)

model = nn.Sequential(nn.Linear(8, 64), nn.ReLU(), nn.Linear(64, 32), nn.ReLU(), nn.Linear(32, 1))
opt = torch.optim.Adam(model.parameters(), lr=3e-3)
loader = DataLoader(TensorDataset(x_tr, y_tr), batch_size=128, shuffle=True)
for epoch in range(12):
    for xb, yb in loader:
        loss = ((model(xb).squeeze(1) - yb) ** 2).mean()
        opt.zero_grad()
        loss.backward()
        opt.step()
    with torch.no_grad():
        pred = model(x_te).squeeze(1)
        test_mse = ((pred - y_te) ** 2).mean().item()
    print(f"epoch {epoch + 1} test mse {test_mse:.4f}")

acc = ((pred - y_te).abs() < 0.15 * y_te).float().mean().item()
print(f"final_loss={test_mse:.6g} acc={acc:.4f}")
