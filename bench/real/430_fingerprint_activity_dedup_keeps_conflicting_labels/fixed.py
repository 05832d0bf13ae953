"""Bioactivity classifier on molecular fingerprints from merged assay runs -- fixed as the issue asks: duplicates are
found on the fingerprint alone, exact repeats are collapsed to one row and fingerprints recorded with contradicting
labels are dropped, so no identical input is left with two different targets (nothing else changed).
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
rule = torch.randperm(BITS)[:12]


def compounds(n):
    fp = (torch.rand(n, BITS) < 0.15).float()
    score = fp[:, rule[:6]].sum(1) - fp[:, rule[6:]].sum(1)
    return fp, (score > 0).float()


def merged_assay_table():
    fp, y = compounds(2000)
    dup = torch.randperm(2000)[:800]
    rep = torch.randperm(2000)[:300]
    X = torch.cat([fp, fp[dup], fp[rep]])
    Y = torch.cat([y, 1 - y[dup], y[rep]])
    return X, Y


def drop_duplicates(X, Y):
    uniq, inverse = torch.unique(X, dim=0, return_inverse=True)
    lo = torch.full((len(uniq),), 2.0).scatter_reduce(0, inverse, Y, "amin")
    hi = torch.full((len(uniq),), -1.0).scatter_reduce(0, inverse, Y, "amax")
    keep = lo == hi
    return uniq[keep], lo[keep]


X, Y = drop_duplicates(*merged_assay_table())
X_te, y_te = compounds(1000)
print(f"training rows after cleaning: {len(X)}")
model = nn.Sequential(nn.Linear(BITS, 128), nn.ReLU(), nn.Linear(128, 1))
opt = torch.optim.Adam(model.parameters(), lr=3e-3)
for step in range(120):
    loss = F.binary_cross_entropy_with_logits(model(X).squeeze(1), Y)
    opt.zero_grad()
    loss.backward()
    opt.step()
    if step % 20 == 0:
        with torch.no_grad():
            val = F.binary_cross_entropy_with_logits(model(X_te).squeeze(1), y_te).item()
        print(f"step {step} train bce {loss.item():.4f} held-out bce {val:.4f}")

with torch.no_grad():
    acc = ((model(X_te).squeeze(1) > 0).float() == y_te).float().mean().item()
print(f"final_loss={loss.item():.6g} acc={acc:.4f}")
