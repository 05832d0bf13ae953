"""Fixed version of 08_pixels_not_scaled/buggy.py (the source and the report are in its docstring).

Fix: scale the pixels to [0, 1] (x / 255).
"""
import argparse

import numpy as np
import torch
import torch.nn as nn

ap = argparse.ArgumentParser()
ap.add_argument("--seed", type=int, default=0)
args = ap.parse_args()
torch.manual_seed(args.seed)
rng = np.random.default_rng(args.seed)

# 4 classes of 16x16 grey images: a bright square in one quadrant on a noisy background
n = 2000
y_train = rng.integers(0, 4, n)
x_train = rng.integers(0, 120, (n, 1, 16, 16)).astype("float32")
for i, c in enumerate(y_train):
    r, q = divmod(int(c), 2)
    x_train[i, 0, r * 8:r * 8 + 8, q * 8:q * 8 + 8] += 135
x_train = torch.tensor(x_train / 255.0)
y_train = torch.tensor(y_train)

model = nn.Sequential(
    nn.Conv2d(1, 16, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2),
    nn.Conv2d(16, 16, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2),
    nn.Flatten(), nn.Linear(16 * 16, 64), nn.ReLU(), nn.Linear(64, 4))
optimizer = torch.optim.SGD(model.parameters(), lr=0.01, momentum=0.9)
loss_fn = nn.CrossEntropyLoss()

losses = []
for epoch in range(3):
    perm = torch.randperm(n)
    for i in range(0, n, 64):
        idx = perm[i:i + 64]
        loss = loss_fn(model(x_train[idx]), y_train[idx])
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        losses.append(loss.item())

with torch.no_grad():
    acc = (model(x_train).argmax(1) == y_train).float().mean().item()
print(f"final_loss={np.mean(losses[-20:]):.6g} acc={acc:.4f}")
