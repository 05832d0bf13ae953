"""Fault: missing-zero-grad. The training loop never clears the gradients (the
optimizer.zero_grad() line was lost in a refactor). Each backward adds to the previous
gradients, so the step taken at iteration t is the sum of all gradients so far: the
gradient norm grows step after step and the loss swings instead of settling.

Mechanism: gradients accumulate across steps (no zero_grad).
"""
import argparse

import torch
from torch import nn
from torch.utils.data import DataLoader, TensorDataset

ap = argparse.ArgumentParser()
ap.add_argument("--seed", type=int, default=0)
ap.add_argument("--epochs", type=int, default=3)
args = ap.parse_args()
torch.manual_seed(args.seed)
X = torch.randn(5000, 10)
y = (X[:, 0] * X[:, 1] > 0).long() + (X[:, 2] > 1).long()
loader = DataLoader(TensorDataset(X, y), batch_size=64, shuffle=True)
model = nn.Sequential(nn.Linear(10, 64), nn.ReLU(), nn.Linear(64, 3))
optimizer = torch.optim.SGD(model.parameters(), lr=0.01, momentum=0.9)
criterion = nn.CrossEntropyLoss()
for epoch in range(args.epochs):
    total = 0.0
    for xb, yb in loader:
        out = model(xb)
        loss = criterion(out, yb)
        loss.backward()
        optimizer.step()
        total += loss.item()
    print(f"epoch {epoch}: {total / len(loader):.4f}")
