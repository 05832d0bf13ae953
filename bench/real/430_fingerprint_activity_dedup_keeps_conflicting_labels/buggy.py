"""Bioactivity classifier on 256-bit molecular fingerprints (MLP 256-128-1, BCE, Adam, full-batch), trained on a table merged from several assay runs. Many compounds were measured more than once and the runs disagree: the same fingerprint appears with label 1 in one run and 0 in another. The cleaning step removes duplicate rows by comparing whole rows -- features and label together -- so exact repeats go away but every pair of identical fingerprints with opposite labels survives. More than half of the cleaned training rows belong to such conflicting pairs; the network cannot separate identical inputs, its training loss is pinned near ln 2 on that part of the data, and the conflicting compounds pull the decision function towards 0.5 around them.

Source: https://github.com/nijamudheen/CheMLFlow/issues/10 (Not deleting all duplicates)
Report: "This line is not deleting the data where all the values for X are the same, and just the y (label) is
different." Reproduced with 2,000 synthetic compounds (activity from a hidden substructure rule), 800 of them present
twice with opposite labels plus 300 exact repeats, deduplication over (fingerprint, label) rows as in the report,
120 full-batch Adam steps at lr 3e-3. The printed loss is the final training BCE; `acc` is the accuracy on 1,000
clean held-out compounds.

expect: label-conflict
symptom: final-loss-ratio 2.5
batch: 26
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
    rows = torch.cat([X, Y[:, None]], 1)
    rows = torch.unique(rows, dim=0)
    return rows[:, :-1], rows[:, -1]


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
