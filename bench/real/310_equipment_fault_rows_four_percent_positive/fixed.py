"""Equipment-fault classifier -- fixed by drawing the training batches with a WeightedRandomSampler that
gives each class half of the sampling weight (every fault row weighted by 1 / #faults, every healthy
row by 1 / #healthy), so the batches are balanced like the undersampled set in the source, without
throwing rows away (nothing else changed).
"""
import argparse

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset

ap = argparse.ArgumentParser()
ap.add_argument("--seed", type=int, default=0)
args = ap.parse_args()
torch.manual_seed(args.seed)
torch.set_num_threads(1)


def equipment_rows(n):
    x = torch.randn(n, 16)
    vib, temp, hours, load = x[:, 0], x[:, 1], x[:, 2], x[:, 3]
    risk = 1.3 * vib + 0.9 * temp * (hours > 0).float() + 0.8 * F.relu(hours) + 0.4 * load * vib
    risk = risk + 0.8 * torch.randn(n)
    threshold = torch.quantile(risk, 0.96)
    return x, (risk > threshold).float()


def balanced_acc(logits, y):
    pred = (logits > 0).float()
    return 0.5 * ((pred[y == 1] == 1).float().mean() + (pred[y == 0] == 0).float().mean()).item()


Xtr, ytr = equipment_rows(40000)
Xte, yte = equipment_rows(10000)
dataset = TensorDataset(Xtr, ytr)
class_count = torch.bincount(ytr.long()).float()
sampler = torch.utils.data.WeightedRandomSampler((1.0 / class_count)[ytr.long()], num_samples=len(ytr))
loader = DataLoader(dataset, batch_size=512, sampler=sampler)
model = nn.Sequential(nn.Linear(16, 64), nn.ReLU(), nn.Linear(64, 32), nn.ReLU(), nn.Linear(32, 1))
opt = torch.optim.Adam(model.parameters(), lr=1e-3)

for epoch in range(3):
    model.train()
    for xb, yb in loader:
        loss = F.binary_cross_entropy_with_logits(model(xb).squeeze(1), yb)
        opt.zero_grad()
        loss.backward()
        opt.step()
    model.eval()
    with torch.no_grad():
        logits = model(Xte).squeeze(1)
        per_row = F.binary_cross_entropy_with_logits(logits, yte, reduction="none")
        val = 0.5 * (per_row[yte == 1].mean() + per_row[yte == 0].mean()).item()
        bacc = balanced_acc(logits, yte)
        recall = (logits[yte == 1] > 0).float().mean().item()
    print(f"epoch {epoch} train {loss.item():.4f} val {val:.4f} fault_recall {recall:.3f} balanced_acc {bacc:.4f}")

print(f"final_loss={val:.6g} acc={bacc:.4f}")
