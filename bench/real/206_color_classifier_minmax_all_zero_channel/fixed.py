"""Colour classifier -- fixed by guarding the min-max normalisation: a channel whose max equals
its min gets a span of 1 (it becomes all zeros) instead of dividing 0 by 0; nothing else changed.
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

n = 1200
labels = torch.randint(0, 2, (n,))
base = torch.where(labels.unsqueeze(1) == 0, torch.tensor([200.0, 90.0]), torch.tensor([90.0, 190.0]))
rg = (base + 45 * torch.randn(n, 2)).clamp(0, 255)
xs = torch.cat([rg, torch.zeros(n, 1)], 1)

lo, hi = xs.min(0).values, xs.max(0).values
span = hi - lo
span = torch.where(span > 0, span, torch.ones_like(span))
xs_n = (xs - lo) / span

perm = torch.randperm(n)
tr, va = perm[:960], perm[960:]
model = nn.Sequential(nn.Linear(3, 16), nn.ReLU(), nn.Linear(16, 16), nn.ReLU(), nn.Linear(16, 2))
opt = torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9)

for epoch in range(15):
    order = tr[torch.randperm(len(tr))]
    total, count = 0.0, 0
    for i in range(0, len(order), 32):
        idx = order[i:i + 32]
        loss = F.cross_entropy(model(xs_n[idx]), labels[idx])
        opt.zero_grad()
        loss.backward()
        opt.step()
        total += loss.item() * len(idx)
        count += len(idx)
    print(f"epoch {epoch} loss {total / count:.4f}")

with torch.no_grad():
    acc = (model(xs_n[va]).argmax(1) == labels[va]).float().mean().item()
print(f"final_loss={total / count:.6g} acc={acc:.4f}")
