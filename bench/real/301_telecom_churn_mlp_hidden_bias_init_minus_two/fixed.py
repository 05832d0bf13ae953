"""Telecom churn MLP -- fixed by initialising the hidden biases to a small positive constant (0.01, as
the source suggests) instead of -2.0, so the ReLUs start active on part of the data and gradients
reach the hidden weights (nothing else changed).
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


def customers(n):
    x = torch.randn(n, 14)
    tenure, charges, calls, contract = x[:, 0], x[:, 1], x[:, 2], (x[:, 3] > 0.5).float()
    z = -1.2 - 1.1 * tenure + 0.8 * charges * (tenure < 0).float() + 0.9 * F.relu(calls) - 1.0 * contract
    z = z + 0.3 * x[:, 4] * x[:, 5]
    y = (torch.rand(n) < torch.sigmoid(2 * z)).float()
    return x, y


def balanced_acc(logits, y):
    pred = (logits > 0).float()
    tpr = (pred[y == 1] == 1).float().mean()
    tnr = (pred[y == 0] == 0).float().mean()
    return ((tpr + tnr) / 2).item()


Xtr, ytr = customers(10000)
Xte, yte = customers(2000)
model = nn.Sequential(nn.Linear(14, 32), nn.ReLU(), nn.Linear(32, 32), nn.ReLU(), nn.Linear(32, 1))


def init_weights(m):
    if isinstance(m, nn.Linear) and m.out_features > 1:
        nn.init.constant_(m.bias, 0.01)


model.apply(init_weights)
opt = torch.optim.Adam(model.parameters(), lr=0.01)

for step in range(80):
    loss = F.binary_cross_entropy_with_logits(model(Xtr).squeeze(1), ytr)
    opt.zero_grad()
    loss.backward()
    opt.step()
    if step % 20 == 19:
        with torch.no_grad():
            logits = model(Xte).squeeze(1)
            val = F.binary_cross_entropy_with_logits(logits, yte).item()
            bacc = balanced_acc(logits, yte)
        print(f"step {step + 1} train {loss.item():.4f} val {val:.4f} balanced_acc {bacc:.4f}")

print(f"final_loss={val:.6g} acc={bacc:.4f}")
