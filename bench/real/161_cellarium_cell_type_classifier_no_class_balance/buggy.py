"""Single-cell cell-type classifier (library-size-normalized log1p expression of 400 genes, MLP with dropout, cross-entropy, AdamW) trained on an atlas where two abundant types hold ~80% of the cells and the rare subtypes (each a small variation of an abundant one) hold under 2% each: the unweighted loss is minimised by folding the rare subtypes into their parent types, whose recall collapses, and the balanced accuracy stays low.

Source: https://github.com/cellarium-ai/cellarium-ml/pull/403 (socam: implement class balance weighting of loss)
Report: "Add class balancing weights to the cross_entropy loss. This is built into pytorch's
cross_entropy already, so this is mostly plumbing to accept a class_counts input ... whose values
are cell counts across the whole training dataset. If the class_counts input is None (default),
then there is no class balancing used (current behavior)"; "We are running into the same thing in
CAS... we probably need to try it." Reproduced with a cell-type classification head trained on
synthetic UMI counts (negative-binomial-like, 9 cell types: 2 abundant, 3 intermediate, 4 rare
subtypes differing from a parent type in a handful of marker genes), per-cell total-count
normalization to 1e4 and log1p, a DataLoader, AdamW lr 1e-3 and plain cross_entropy (the
default, `class_counts=None`). The printed loss is the training cross-entropy of the last
epoch, `acc` the balanced accuracy (mean per-type recall) on held-out cells.

expect: class-imbalance
symptom: acc-below 0.7
batch: 9
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

GENES = 400
# cell types: 0,1 abundant; 2,3,4 intermediate; 5..8 rare subtypes of 0,1,0,2
counts_per_type = [4200, 3000, 500, 420, 350, 110, 90, 80, 70]
parent = [None, None, None, None, None, 0, 1, 0, 2]
base = torch.exp(torch.randn(GENES) * 1.0 - 1.0)
profiles = []
for t, p in enumerate(parent):
    if p is None:
        prof = base * torch.exp(0.9 * torch.randn(GENES) * (torch.rand(GENES) < 0.25))
    else:
        prof = profiles[p].clone()
        markers = torch.randperm(GENES)[:8]
        prof[markers] = prof[markers] * (2.6 + 0.6 * torch.rand(8))
    profiles.append(prof)
profiles = torch.stack(profiles)


def sample_cells(scale):
    labels = torch.cat([torch.full((max(1, int(c * scale)),), t) for t, c in enumerate(counts_per_type)])
    lib = torch.exp(torch.randn(len(labels)) * 0.4 + 7.5)
    mu = profiles[labels] / profiles[labels].sum(1, keepdim=True) * lib.unsqueeze(1)
    rate = mu * torch.distributions.Gamma(torch.full_like(mu, 4.0), torch.full_like(mu, 4.0)).sample()
    umi = torch.poisson(rate)
    x = torch.log1p(umi / umi.sum(1, keepdim=True) * 1e4)
    return x, labels


train_x, train_y = sample_cells(1.0)
test_x, test_y = sample_cells(0.5)
mean, std = train_x.mean(0), train_x.std(0) + 1e-3
train_x, test_x = (train_x - mean) / std, (test_x - mean) / std
n_types = len(counts_per_type)
class_counts = None          # default: no class balancing

model = nn.Sequential(nn.Linear(GENES, 128), nn.ReLU(), nn.Dropout(0.3),
                      nn.Linear(128, 64), nn.ReLU(), nn.Dropout(0.3), nn.Linear(64, n_types))
weight = None
if class_counts is not None:
    weight = class_counts.sum() / (len(class_counts) * class_counts)
optimizer = torch.optim.AdamW(model.parameters(), lr=1e-3, weight_decay=1e-2)
loader = DataLoader(TensorDataset(train_x, train_y), batch_size=256, shuffle=True)

for epoch in range(6):
    model.train()
    total, count = 0.0, 0
    for xb, yb in loader:
        loss = F.cross_entropy(model(xb), yb, weight=weight)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        total += loss.item()
        count += 1
    print(f"epoch {epoch} loss {total / count:.4f}")

model.eval()
with torch.no_grad():
    pred = model(test_x).argmax(1)
recalls = [(pred[test_y == t] == t).float().mean().item() for t in range(n_types)]
print("per-type recall", " ".join(f"{r:.2f}" for r in recalls))
acc = sum(recalls) / n_types
print(f"final_loss={total / count:.6g} acc={acc:.4f}")
