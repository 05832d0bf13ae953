"""Fixed version of /buggy.py (the source and the report are in its docstring).

Fix: a learning rate suited to the normalised features (0.05).
"""
import argparse

import torch

ap = argparse.ArgumentParser()
ap.add_argument("--seed", type=int, default=0)
ap.add_argument("--lr", type=float, default=0.05)
args = ap.parse_args()
torch.manual_seed(args.seed)

# 8 raw features with scales in the hundreds, target a noisy linear function of them
n, d = 2000, 8
scale = torch.tensor([300.0, 120.0, 50.0, 800.0, 40.0, 200.0, 90.0, 500.0])
X_raw = torch.rand(n, d) * scale
true_w = torch.randn(d)
y = (X_raw / scale) @ true_w * 3 + 0.1 * torch.randn(n)
y = (y - y.mean()) / y.std()

mean, std = X_raw.mean(0), X_raw.std(0)
X = (X_raw - mean) / std  # the normalisation step of the lab

w = torch.zeros(d, requires_grad=True)
b = torch.zeros(1, requires_grad=True)
losses = []
for epoch in range(20):
    perm = torch.randperm(n)
    for k in range(0, n, 100):
        idx = perm[k:k + 100]
        pred = X[idx] @ w + b
        loss = ((pred - y[idx]) ** 2).mean()
        loss.backward()
        with torch.no_grad():
            w -= args.lr * w.grad
            b -= args.lr * b.grad
            w.grad.zero_()
            b.grad.zero_()
        losses.append(loss.item())
with torch.no_grad():
    r2 = 1 - ((X @ w + b - y) ** 2).mean().item() / y.var().item()
print(f"final_loss={sum(losses[-10:]) / 10:.6g} acc={r2:.4f}")
