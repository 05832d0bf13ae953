"""Fixed version of 27_autotrainer_oscillating_loss/buggy.py (the source and the report are in its docstring).

Fix: a smaller learning rate (0.05).
"""
import argparse

import numpy as np
import torch
import torch.nn as nn

ap = argparse.ArgumentParser()
ap.add_argument("--seed", type=int, default=0)
args = ap.parse_args()
rng = np.random.default_rng(args.seed)
torch.manual_seed(args.seed)

# make_blobs(n_samples=1000, centers=3, n_features=2, cluster_std=2)
centers = rng.uniform(-10, 10, (3, 2))
y = rng.integers(0, 3, 1000)
X = centers[y] + 2.0 * rng.standard_normal((1000, 2))
X = (X - X.mean(0)) / X.std(0)
X, y = torch.tensor(X, dtype=torch.float32), torch.tensor(y)

model = nn.Sequential(nn.Linear(2, 50), nn.ReLU(), nn.Linear(50, 3))
opt = torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9)
loss_fn = nn.CrossEntropyLoss()
hist = []
for epoch in range(20):
    for i in range(0, 1000, 100):
        loss = loss_fn(model(X[i:i + 100]), y[i:i + 100])
        opt.zero_grad()
        loss.backward()
        opt.step()
        hist.append(loss.item())
with torch.no_grad():
    acc = (model(X).argmax(1) == y).float().mean().item()
print(f"final_loss={np.mean(hist[-20:]):.6g} acc={acc:.4f}")
