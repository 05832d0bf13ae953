"""Fingerprint solubility regressor -- fixed: the held-out split is drawn by compound, not by row
(20% of the compounds with all their replicates go to the test side), so no test molecule is also
a training molecule and the test error measures prediction on new compounds (nothing else
changed).
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

BITS, COMPOUNDS = 1024, 2000
scaffolds = (torch.rand(12, BITS) < 0.03).float()
w_true = torch.randn(BITS) * 0.12

scaffold = torch.randint(0, 12, (COMPOUNDS,))
fps = ((scaffolds[scaffold] + (torch.rand(COMPOUNDS, BITS) < 0.04).float()) > 0).float()
logs = fps @ w_true - 0.01 * fps.sum(1) + 0.6 * torch.randn(COMPOUNDS)

replicates = torch.randint(1, 4, (COMPOUNDS,))
compound_of_row = torch.repeat_interleave(torch.arange(COMPOUNDS), replicates)
X = fps[compound_of_row]
y = logs[compound_of_row] + 0.1 * torch.randn(len(compound_of_row))

test_compound = torch.zeros(COMPOUNDS, dtype=torch.bool)
test_compound[torch.randperm(COMPOUNDS)[:COMPOUNDS // 5]] = True
is_test = test_compound[compound_of_row]
test_idx, train_idx = torch.nonzero(is_test).flatten(), torch.nonzero(~is_test).flatten()

model = nn.Sequential(nn.Linear(BITS, 256), nn.ReLU(), nn.Linear(256, 1))
opt = torch.optim.Adam(model.parameters(), lr=1e-3, weight_decay=1e-4)
mu = y[train_idx].mean()

for epoch in range(6):
    order, total = train_idx[torch.randperm(len(train_idx))], 0.0
    for i in range(0, len(order), 64):
        idx = order[i:i + 64]
        loss = F.mse_loss(model(X[idx]).squeeze(1) + mu, y[idx])
        opt.zero_grad()
        loss.backward()
        opt.step()
        total += loss.item() * len(idx)
    with torch.no_grad():
        test_pred = model(X[test_idx]).squeeze(1) + mu
        test_mse = F.mse_loss(test_pred, y[test_idx]).item()
    print(f"epoch {epoch} train {total / len(order):.4f} test {test_mse:.4f}")

acc = ((test_pred - y[test_idx]).abs() < 0.5).float().mean().item()
print(f"final_loss={test_mse:.6g} acc={acc:.4f}")
