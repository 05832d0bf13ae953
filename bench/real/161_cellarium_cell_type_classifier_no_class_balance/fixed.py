"""Single-cell cell-type classifier -- fixed as in the PR: the training set's per-type cell counts are
passed as `class_counts`, so cross_entropy is weighted inversely to type frequency (nothing else
changed).
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
class_counts = torch.bincount(train_y, minlength=n_types).float()

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
