"""Transcriptomics case/control classifier -- fixed as in the project: columns whose standard deviation
is zero (the unexpressed genes) are removed before Z-scaling, so no 0/0 reaches the network. Nothing
else changed.
"""
import argparse

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset

ap = argparse.ArgumentParser()
ap.add_argument("--seed", type=int, default=0)
args = ap.parse_args()
torch.manual_seed(args.seed)
torch.set_num_threads(1)

GENES = 300
silent = torch.randperm(GENES)[:6]
module = torch.randperm(GENES)[:12]
base = 2 + 4 * torch.rand(GENES)


def donors(n):
    expr = base + 0.8 * torch.randn(n, GENES)
    age = 50 + 12 * torch.randn(n, 1)
    risk = expr[:, module[:6]].sum(1) - expr[:, module[6:]].sum(1) - (base[module[:6]].sum() - base[module[6:]].sum())
    risk = risk / 2 + 0.04 * (age[:, 0] - 50) + 0.5 * torch.randn(n)
    expr[:, silent] = 0.0
    return torch.cat([expr, age], 1), (risk > 0).long()


x_train, y_train = donors(1500)
x_val, y_val = donors(500)


def zscore_columns(train, other):
    mean, std = train.mean(0), train.std(0)
    keep = std > 0
    return (train[:, keep] - mean[keep]) / std[keep], (other[:, keep] - mean[keep]) / std[keep]


xt, xv = zscore_columns(x_train, x_val)
loader = DataLoader(TensorDataset(xt, y_train), batch_size=64, shuffle=True)
model = nn.Sequential(nn.Linear(xt.shape[1], 64), nn.ReLU(), nn.Linear(64, 2))
opt = torch.optim.Adam(model.parameters(), lr=1e-3)
for epoch in range(7):
    total = 0.0
    for xb, yb in loader:
        loss = F.cross_entropy(model(xb), yb)
        opt.zero_grad()
        loss.backward()
        opt.step()
        total += loss.item() * len(yb)
    if epoch % 3 == 0:
        print(f"epoch {epoch} train loss {total / len(xt):.4f}")

with torch.no_grad():
    out = model(xv)
    val_loss = F.cross_entropy(out, y_val).item()
    acc = (out.argmax(1) == y_val).float().mean().item()
print(f"final_loss={val_loss:.6g} acc={acc:.4f}")
