"""Fault: overfitting. A 3-layer 512-wide MLP trained for many epochs on 200 noisy
examples, evaluated every epoch on a held-out set. No weight decay, no dropout, no early
stopping: the training loss heads to zero while the validation loss bottoms out after a
few epochs and then climbs steadily.

Mechanism: model capacity far above what 200 samples support; validation loss rises.
"""
import argparse

import torch
from torch import nn
from torch.utils.data import DataLoader, TensorDataset

ap = argparse.ArgumentParser()
ap.add_argument("--seed", type=int, default=0)
ap.add_argument("--epochs", type=int, default=60)
args = ap.parse_args()
torch.manual_seed(args.seed)


def make(n):
    x = torch.randn(n, 30)
    y = (x[:, 0] + 0.5 * x[:, 1] + 1.0 * torch.randn(n) > 0).long()
    return x, y


Xtr, ytr = make(200)
Xva, yva = make(1000)
model = nn.Sequential(nn.Linear(30, 512), nn.ReLU(), nn.Linear(512, 512), nn.ReLU(), nn.Linear(512, 2))
opt = torch.optim.Adam(model.parameters(), lr=1e-3)
crit = nn.CrossEntropyLoss()
train = DataLoader(TensorDataset(Xtr, ytr), batch_size=32, shuffle=True)
for epoch in range(args.epochs):
    model.train()
    for xb, yb in train:
        opt.zero_grad()
        loss = crit(model(xb), yb)
        loss.backward()
        opt.step()
    model.eval()
    with torch.no_grad():
        val = crit(model(Xva), yva)
    if epoch % 10 == 0:
        print(f"epoch {epoch} train {loss.item():.3f} val {val.item():.3f}")
