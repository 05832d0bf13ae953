"""Clothing-category classifier over product-photo descriptors, trained with a DataLoader for a fixed budget of optimiser steps on a scraped image set in which a few dozen photos are stored many times.

Fixed: exact duplicate rows are removed (torch.unique over the descriptor rows, one copy kept)
before the DataLoader is built.
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

CATS, FEATS, STEPS = 8, 48, 300
prototype = torch.randn(CATS, FEATS)
mix = torch.randn(FEATS, FEATS) / FEATS ** 0.5


def photos(n):
    y = torch.randint(0, CATS, (n,))
    x = 0.5 * prototype[y] + 0.8 * torch.randn(n, FEATS)
    return x + 0.5 * torch.tanh(x @ mix), y


X, y = photos(3000)
copies = torch.randperm(3000)[:40].repeat_interleave(400)
X_all, y_all = torch.cat([X, X[copies]]), torch.cat([y, y[copies]])
rows, first = torch.unique(X_all, dim=0, return_inverse=True)
keep = torch.zeros(len(rows), dtype=torch.long).scatter_(0, first, torch.arange(len(X_all)))
X_all, y_all = X_all[keep], y_all[keep]
X_test, y_test = photos(1000)
print(f"{len(X_all)} training rows")

model = nn.Sequential(nn.Linear(FEATS, 128), nn.ReLU(), nn.Linear(128, 64), nn.ReLU(), nn.Linear(64, CATS))
opt = torch.optim.Adam(model.parameters(), lr=1e-3)
loader = DataLoader(TensorDataset(X_all, y_all), batch_size=64, shuffle=True)

step = 0
while step < STEPS:
    for xb, yb in loader:
        loss = F.cross_entropy(model(xb), yb)
        opt.zero_grad()
        loss.backward()
        opt.step()
        step += 1
        if step % 50 == 0:
            with torch.no_grad():
                test_loss = F.cross_entropy(model(X_test), y_test).item()
            print(f"step {step} train {loss.item():.4f} test {test_loss:.4f}")
        if step == STEPS:
            break

with torch.no_grad():
    logits = model(X_test)
    test_loss = F.cross_entropy(logits, y_test).item()
    acc = (logits.argmax(1) == y_test).float().mean().item()
print(f"final_loss={test_loss:.6g} acc={acc:.4f}")
