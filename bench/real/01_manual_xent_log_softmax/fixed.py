"""Fixed version of 01_manual_xent_log_softmax/buggy.py (the source and the report are in its docstring).

Fix: the fused, stable cross-entropy on the logits (F.cross_entropy) instead of log(softmax).
"""
import argparse

import torch
import torch.nn as nn

p = argparse.ArgumentParser()
p.add_argument("--seed", type=int, default=0)
args = p.parse_args()
torch.manual_seed(args.seed)

n_cls = 10
centers = torch.randn(n_cls, 32) * 6
y_all = torch.randint(0, n_cls, (2048,))
x_all = centers[y_all] + 0.5 * torch.randn(2048, 32)

net = nn.Sequential(nn.Linear(32, 128), nn.ReLU(), nn.Linear(128, n_cls))
opt = torch.optim.Adam(net.parameters(), lr=0.05)

losses = []
for epoch in range(12):
    perm = torch.randperm(2048)
    for i in range(0, 2048, 128):
        idx = perm[i:i + 128]
        x, y = x_all[idx], y_all[idx]
        loss = torch.nn.functional.cross_entropy(net(x), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
        losses.append(loss.item())

with torch.no_grad():
    acc = (net(x_all).argmax(1) == y_all).float().mean().item()
final = sum(losses[-10:]) / 10
print(f"final_loss={final:.6g} acc={acc:.4f}")
