"""Homework sigmoid network -- fixed by scaling the normal initial weights by 1/sqrt(fan-in), so the
hidden pre-activations start near unit scale instead of ~14 and the sigmoid units are not pinned at
0 or 1; nothing else changed.
"""
import argparse

import torch

ap = argparse.ArgumentParser()
ap.add_argument("--seed", type=int, default=0)
args = ap.parse_args()
torch.manual_seed(args.seed)
torch.set_num_threads(1)

n, d, h, k = 600, 576, 48, 8
templates = (torch.rand(k, d) < 0.3).float()
y = torch.arange(n) % k
flip = (torch.rand(n, d) < 0.08).float()
X = (templates[y] - flip).abs()
T = torch.eye(k)[y]

W1 = torch.randn(d, h) / d ** 0.5
b1 = torch.zeros(h)
W2 = torch.randn(h, k) / h ** 0.5
b2 = torch.zeros(k)
params = [W1, b1, W2, b2]
for p in params:
    p.requires_grad_(True)

lr = 0.5
for step in range(400):
    hidden = torch.sigmoid(X @ W1 + b1)
    out = torch.sigmoid(hidden @ W2 + b2)
    loss = ((out - T) ** 2).sum(1).mean()
    for p in params:
        p.grad = None
    loss.backward()
    with torch.no_grad():
        for p in params:
            p -= lr * p.grad
    if step % 50 == 0:
        print(f"step {step} mse {loss.item():.4f}")

with torch.no_grad():
    out = torch.sigmoid(torch.sigmoid(X @ W1 + b1) @ W2 + b2)
    acc = (out.argmax(1) == y).float().mean().item()
print(f"final_loss={loss.item():.6g} acc={acc:.4f}")
