"""Blood-brain-barrier permeability classifier (MLP on 256-bit molecular fingerprints, binary
cross-entropy, mini-batches sliced by hand from a shuffled index) trained on a benchmark split in
which many molecules appear twice -- once as permeable and once as non-permeable, because the set
was merged from sources that disagree. For those rows the same input carries both targets, so no
model can push their loss below log 2; the training loss stalls far above what the deduplicated
set reaches, and the contradictory rows also blur the decision boundary learned for everything else.

Source: https://github.com/mims-harvard/TDC/issues/158 (Duplicates in ADMET group test set with different classification labels)
Report: "We have found some duplicates in the `BBB_Martins` dataset of ADMET group. It appears that
some of the duplicates have different classification labels" -- e.g. loratadine listed in train_val
with Y = 0 and again with Y = 1. Reproduced with 4,000 synthetic molecules (sparse fingerprints,
permeability from a hidden linear rule on the bits) of which 1,500 are listed a second time with the
opposite label, an MLP trained with Adam (lr 1e-3, weight decay 1e-4) for 12 epochs of batch 64.
The printed loss is the BCE over the training rows in the last epoch, `acc` the accuracy on 800
clean held-out molecules.

expect: label-conflict
symptom: loss-above 0.4
batch: 16
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
    return fp, y


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
