"""Monthly-rent regressor for an online flat-listing site (8 standardised listing features -> rent
in thousands, a two-hidden-layer MLP, MSE, Adam, shuffled DataLoader). The listings were typed in
by hand and a few landlords pressed the zero key too often: 0.5 % of the rents are 100x or 1000x too
large. Under a squared error those few rows dominate every batch they land in, the network bends
its fit towards them, and the error on ordinary listings ends up several times worse than for the
same model trained without them.

Source: https://www.samples-of-thoughts.com/page/2/ (House-Cleaning: Getting rid of outliers I)
Report: "Outliers are defined as points that differ significantly from other data points and they
are especially common in data obtained through manual input processes. For example, on an online
listing site, someone might accidentally pressed the zero-key a bit too often and suddenly the
small rental flat is as expensive as a palace." Reproduced with 5,000 synthetic listings (rent from
size, rooms, district, floor, age and amenities), 25 of them with an extra two or three zeros, batch
128, Adam lr 3e-3, 12 epochs. The printed loss is the MSE (in thousand^2) on 1,500 clean held-out
listings, `acc` the fraction of them predicted within 15 %.

expect: data-outlier
symptom: final-loss-ratio 3
batch: 17
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
    return x, rent


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
