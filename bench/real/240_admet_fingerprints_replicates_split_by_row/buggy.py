"""Solubility regressor for a blind-challenge style ADMET task (1024-bit molecular fingerprints, a
two-layer MLP, minibatch Adam) evaluated on a held-out split. The assay table holds one row per
measurement and most compounds were measured two or three times, but the split shuffles *rows*:
nearly every test compound also sits in the training set under another replicate, with an identical
fingerprint and almost the same value. The network memorises the compound-specific part of the
solubility that the fingerprint cannot explain, and the held-out error measures recall of seen
molecules -- it looks far better than anything the model can do on a new compound.

Source: https://github.com/asapdiscovery/asap-polaris-blind-challenge-examples/issues/12 (Evaluation favors memorizing models)
Report: "Why is test set a subset of train set? ... From another issue, we also know that identical
molecules exist between the train and test sets." -- i.e. an evaluation on molecules seen in
training favours models that memorise. Reproduced with 2,000 synthetic compounds (fingerprint bits
from 12 scaffolds plus random substituent bits; log-solubility = a linear function of the bits plus
a compound-specific offset of std 0.6), each measured 1 to 3 times with assay noise 0.1, about
4,000 rows; an 80/20 row split. MLP 1024-256-1, Adam lr 1e-3, weight decay 1e-4, batch 64, 6
epochs. The printed loss is the
MSE on the test split, `acc` the fraction of test rows predicted within 0.5 log units.

expect: data-leakage
symptom: loss-below 0.35
batch: 14
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

perm = torch.randperm(len(y))
n_test = len(y) // 5
test_idx, train_idx = perm[:n_test], perm[n_test:]

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
