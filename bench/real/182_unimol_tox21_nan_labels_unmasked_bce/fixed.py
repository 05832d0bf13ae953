"""Tox21-style multi-task classifier -- fixed as the maintainers do: missing labels are replaced by -1
and those positions are filtered out of the loss (nothing else changed).
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

N_BITS, N_TASKS = 1024, 12
g = torch.Generator().manual_seed(7)
substructures = [torch.randint(0, N_BITS, (12,), generator=g) for _ in range(40)]
task_rules = [torch.randint(0, 40, (3,), generator=g) for _ in range(N_TASKS)]


def make_molecules(n):
    X = (torch.rand(n, N_BITS) < 0.03).float()
    present = torch.rand(n, 40) < 0.25
    for s in range(40):
        X[present[:, s].nonzero().squeeze(1).unsqueeze(1), substructures[s].unsqueeze(0)] = 1.0
    Y = torch.zeros(n, N_TASKS)
    for t, rule in enumerate(task_rules):
        score = present[:, rule].float().sum(1) + 0.3 * torch.randn(n)
        Y[:, t] = (score > 1.5).float()
    Y[torch.rand(n, N_TASKS) < 0.2] = float("nan")  # assay not measured for this molecule
    return X, Y


def multitask_loss(logits, y):
    y = torch.nan_to_num(y, nan=-1.0)
    keep = y != -1
    return F.binary_cross_entropy_with_logits(logits[keep], y[keep])


train_x, train_y = make_molecules(4000)
test_x, test_y = make_molecules(1000)
loader = DataLoader(TensorDataset(train_x, train_y), batch_size=64, shuffle=True)

model = nn.Sequential(
    nn.Linear(N_BITS, 512), nn.BatchNorm1d(512), nn.ReLU(), nn.Dropout(0.2),
    nn.Linear(512, 256), nn.BatchNorm1d(256), nn.ReLU(), nn.Dropout(0.2),
    nn.Linear(256, N_TASKS),
)
optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)

for epoch in range(5):
    model.train()
    total, count = 0.0, 0
    for x, y in loader:
        loss = multitask_loss(model(x), y)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        total += loss.item()
        count += 1
    print(f"epoch {epoch} loss {total / count:.4f}")

model.eval()
with torch.no_grad():
    pred = (model(test_x) > 0).float()
    measured = ~torch.isnan(test_y)
    acc = (pred[measured] == test_y[measured]).float().mean().item()
print(f"final_loss={total / count:.6g} acc={acc:.4f}")
