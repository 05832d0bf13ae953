"""Deep sensor-fault perceptron -- fixed by using ReLU instead of the logistic sigmoid in the six
hidden layers, so the error signal is no longer scaled down by at most 0.25 per layer on its way
to the first layers (nothing else changed).
"""
import argparse

import torch
import torch.nn as nn
import torch.nn.functional as F

ap = argparse.ArgumentParser()
ap.add_argument("--seed", type=int, default=0)
args = ap.parse_args()
torch.manual_seed(args.seed)
torch.set_num_threads(1)

ACT = nn.ReLU

X = torch.randn(5000, 20)
s1 = X[:, 0] * X[:, 1] + X[:, 2]
s2 = X[:, 3] - X[:, 4] * X[:, 5]
y = (s1 > 0).long() * 2 + (s2 > 0).long()
x_tr, y_tr, x_va, y_va = X[:4000], y[:4000], X[4000:], y[4000:]

layers, width = [], 20
for _ in range(6):
    layers += [nn.Linear(width, 64), ACT()]
    width = 64
model = nn.Sequential(*layers, nn.Linear(64, 4))
opt = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)

for epoch in range(15):
    perm = torch.randperm(4000)
    for i in range(0, 4000, 64):
        idx = perm[i:i + 64]
        loss = F.cross_entropy(model(x_tr[idx]), y_tr[idx])
        opt.zero_grad()
        loss.backward()
        opt.step()
    with torch.no_grad():
        logits = model(x_va)
        val = F.cross_entropy(logits, y_va).item()
    print(f"epoch {epoch} val {val:.4f}")

acc = (logits.argmax(1) == y_va).float().mean().item()
print(f"final_loss={val:.6g} acc={acc:.4f}")
