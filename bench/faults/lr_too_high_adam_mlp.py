"""Fault: lr-too-high. A tabular classifier trained with Adam at lr=0.5: someone copied
the learning rate from an SGD recipe. Adam's step is ~lr per weight regardless of the
gradient's size, so every update moves each weight by ~0.5: the loss jumps around far
above where it started and never settles.

Mechanism: Adam with a learning rate ~100x too large for the model.
"""
import argparse

import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset

ap = argparse.ArgumentParser()
ap.add_argument("--seed", type=int, default=0)
ap.add_argument("--lr", type=float, default=0.5)
ap.add_argument("--epochs", type=int, default=3)
args = ap.parse_args()
torch.manual_seed(args.seed)

X = torch.randn(6000, 20)
W = torch.randn(20, 5)
y = (X @ W + 0.5 * torch.randn(6000, 5)).argmax(1)
loader = DataLoader(TensorDataset(X, y), batch_size=64, shuffle=True)
model = nn.Sequential(nn.Linear(20, 128), nn.ReLU(), nn.Linear(128, 128), nn.ReLU(), nn.Linear(128, 5))
opt = torch.optim.Adam(model.parameters(), lr=args.lr)
loss_fn = nn.CrossEntropyLoss()
for epoch in range(args.epochs):
    for xb, yb in loader:
        opt.zero_grad()
        loss = loss_fn(model(xb), yb)
        loss.backward()
        opt.step()
    print(f"epoch {epoch} loss {loss.item():.3f}")
