"""Fixed version of 07_single_sigmoid_unit_multiclass/buggy.py (the source and the report are in its docstring).

Fix: ten outputs and the (sparse categorical) cross-entropy.
"""
import argparse

import torch
import torch.nn as nn
import torch.nn.functional as F

ap = argparse.ArgumentParser()
ap.add_argument("--seed", type=int, default=0)
args = ap.parse_args()
torch.manual_seed(args.seed)

protos = torch.rand(10, 64)
y_train = torch.randint(0, 10, (4000,))
X_train = (protos[y_train] + 0.25 * torch.rand(4000, 64)).clamp(0, 1)

model = nn.Sequential(nn.Linear(64, 64), nn.ReLU(), nn.Linear(64, 10))
opt = torch.optim.Adam(model.parameters(), lr=1e-3)

hist = []
for epoch in range(3):
    for i in range(0, 4000, 32):
        xb, yb = X_train[i:i + 32], y_train[i:i + 32]
        loss = F.cross_entropy(model(xb), yb)
        opt.zero_grad()
        loss.backward()
        opt.step()
        hist.append(loss.item())

with torch.no_grad():
    pred = model(X_train).argmax(1)
    acc = (pred == y_train).float().mean().item()
print(f"final_loss={sum(hist[-20:]) / 20:.6g} acc={acc:.4f}")
