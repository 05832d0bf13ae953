"""BBB permeability classifier -- fixed by dropping every molecule whose duplicate rows carry
conflicting labels (the deduplication the issue asks for), so each training fingerprint has one
target. Nothing else changed.
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

BITS = 256
rule = torch.randn(BITS) * (torch.rand(BITS) < 0.3)


def molecules(n):
    fp = (torch.rand(n, BITS) < 0.08).float()
    score = fp @ rule
    return fp, (score > score.median()).float()


def merged_split():
    fp, y = molecules(4000)
    again = torch.randperm(4000)[:1500]
    fp = torch.cat([fp, fp[again]])
    y = torch.cat([y, 1 - y[again]])
    _, inverse = torch.unique(fp, dim=0, return_inverse=True)
    label_sum = torch.zeros(int(inverse.max()) + 1).index_add_(0, inverse, y)
    count = torch.zeros(int(inverse.max()) + 1).index_add_(0, inverse, torch.ones_like(y))
    consistent = (label_sum[inverse] == 0) | (label_sum[inverse] == count[inverse])
    return fp[consistent], y[consistent]


X, y = merged_split()
X_test, y_test = molecules(800)

model = nn.Sequential(nn.Linear(BITS, 128), nn.ReLU(), nn.Dropout(0.1), nn.Linear(128, 1))
opt = torch.optim.Adam(model.parameters(), lr=1e-3, weight_decay=1e-4)

for epoch in range(12):
    model.train()
    order = torch.randperm(len(X))
    total = 0.0
    for i in range(0, len(X), 64):
        idx = order[i:i + 64]
        loss = F.binary_cross_entropy_with_logits(model(X[idx]).squeeze(1), y[idx])
        opt.zero_grad()
        loss.backward()
        opt.step()
        total += loss.item() * len(idx)
    model.eval()
    with torch.no_grad():
        test_logits = model(X_test).squeeze(1)
        test_bce = F.binary_cross_entropy_with_logits(test_logits, y_test).item()
        acc = ((test_logits > 0).float() == y_test).float().mean().item()
    if epoch % 3 == 2:
        print(f"epoch {epoch} train bce {total / len(X):.4f} test bce {test_bce:.4f} acc {acc:.3f}")

print(f"final_loss={total / len(X):.6g} acc={acc:.4f}")
