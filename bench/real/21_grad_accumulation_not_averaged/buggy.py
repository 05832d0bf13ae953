"""Gradient accumulation over 8 iterations without dividing the loss: NaN loss.

Source: https://github.com/pytorch/pytorch/issues/24898 (update gradient every N batch)
Report: `loss.backward(); if iter_num % iter_size == 0: optimizer.step(); optimizer.zero_grad()`;
"when iter_size == 8 the loss becomes NAN. Is the loss a sum, not an average?" The accumulated
gradient is the sum of 8 mini-batch gradients; the loss must be divided by iter_size.

expect: loss-reduction
symptom: nonfinite
"""
import argparse

import torch
import torch.nn as nn

ap = argparse.ArgumentParser()
ap.add_argument("--seed", type=int, default=0)
args = ap.parse_args()
torch.manual_seed(args.seed)

X = torch.randn(8192, 32)
true_w = torch.randn(32, 1) * 2
Y = X @ true_w + torch.randn(8192, 1)

model = nn.Sequential(nn.Linear(32, 64), nn.ReLU(), nn.Linear(64, 1))
criterion = nn.MSELoss()
optimizer = torch.optim.SGD(model.parameters(), lr=0.02, momentum=0.9)
iter_size = 8

losses = []
iter_num = 0
for epoch in range(2):
    perm = torch.randperm(8192)
    for i in range(0, 8192, 32):
        idx = perm[i:i + 32]
        loss = criterion(model(X[idx]), Y[idx])
        loss.backward()
        iter_num += 1
        if iter_num % iter_size == 0:
            optimizer.step()
            optimizer.zero_grad()
        losses.append(loss.item())

print(f"final_loss={sum(losses[-16:]) / 16:.6g} acc={0.0:.4f}")
