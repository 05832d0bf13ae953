"""Fault: loss-mismatch. The model already ends in nn.Sigmoid, and the loss is
nn.BCEWithLogitsLoss, which applies a sigmoid again. Outputs in (0, 1) become
sigmoid(p) in (0.5, 0.73): the loss is bounded below by ~0.5 per sample for the negative
class, gradients are weak and the loss flattens high.

Mechanism: probabilities passed to a loss that expects logits (double sigmoid).
"""
import argparse

import torch
from torch import nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset


class CTR(nn.Module):
    def __init__(self, n_users=500, n_items=800, d=16):
        super().__init__()
        self.u = nn.Embedding(n_users, d)
        self.i = nn.Embedding(n_items, d)
        self.mlp = nn.Sequential(nn.Linear(2 * d, 32), nn.ReLU(), nn.Linear(32, 1), nn.Sigmoid())

    def forward(self, u, i):
        return self.mlp(torch.cat([self.u(u), self.i(i)], -1)).squeeze(-1)


ap = argparse.ArgumentParser()
ap.add_argument("--seed", type=int, default=0)
ap.add_argument("--epochs", type=int, default=3)
a = ap.parse_args()
torch.manual_seed(a.seed)
n = 8000
users, items = torch.randint(0, 500, (n,)), torch.randint(0, 800, (n,))
ut, it = torch.randn(500, 4), torch.randn(800, 4)
click = ((ut[users] * it[items]).sum(1) > 0).float()
model = CTR()
opt = torch.optim.Adam(model.parameters(), lr=3e-3)
crit = nn.BCEWithLogitsLoss()
step = 0
for ep in range(a.epochs):
    for u, i, c in DataLoader(TensorDataset(users, items, click), batch_size=128, shuffle=True):
        loss = crit(model(u, i), c)
        opt.zero_grad()
        loss.backward()
        opt.step()
        if step % 20 == 0:
            print(f"ep {ep} step {step} loss {loss.item():.4f}")
        step += 1
with torch.no_grad():
    p = model(users, items)
    print("true BCE of the probabilities", F.binary_cross_entropy(p, click).item())
