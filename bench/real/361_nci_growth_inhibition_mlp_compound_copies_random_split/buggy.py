"""Compound screening regressor: a two-layer MLP (128-bit structural fingerprint in, 64 ReLU units, one output) predicts a growth-inhibition score per compound, MSE, Adam lr 2e-3, 7 epochs of shuffled mini-batches of 128 rows. The screening table holds every compound 30-50 times (the same fingerprint and the same measured score on each copy), and it is split into train and validation rows at random. Nearly every validation row therefore has exact copies in the training rows: the network memorises each compound's own measurement, idiosyncratic noise included, and the validation loss comes out far below what the model achieves on compounds it has never seen -- an inflated score, not a better model.

Source: https://github.com/deepchem/deepchem/issues/346 (Redundant samples in nci dataset)
Report: "There are in total 1 million data points in the nci dataset file, but it seems that each compound
has 30~50 duplicates in that. ... This also explains why index and random splitting has much higher valid
score than scaffold, it is just because same compounds exist both in train and valid groups." -- the
maintainer: "Good find! This would certainly explain why our numbers were so artificially high."
Reproduced with 1,600 synthetic compounds (random sparse fingerprints, a score that is a smooth function of
the fingerprint plus a compound-specific measurement deviation of s.d. 0.4), each written 30-50 times into
the table, an 80/20 random row split and the MLP above. The printed loss is the validation MSE, `acc` the
fraction of validation rows predicted within 0.5 of their score.

expect: data-duplicates
symptom: loss-below 0.12
batch: 22
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

N_COMPOUNDS, BITS, EPOCHS, BATCH = 1600, 128, 7, 128

fingerprints = (torch.rand(N_COMPOUNDS, BITS) < 0.12).float()
w_true = torch.randn(BITS) * 0.4
score = torch.tanh(fingerprints @ w_true) * 1.5 + 0.4 * torch.randn(N_COMPOUNDS)

copies = torch.randint(30, 51, (N_COMPOUNDS,))
compound_of_row = torch.repeat_interleave(torch.arange(N_COMPOUNDS), copies)
table_x, table_y = fingerprints[compound_of_row], score[compound_of_row]


def load_table(x, y):
    return x, y


X, y = load_table(table_x, table_y)
perm = torch.randperm(len(X))
n_val = len(X) // 5
val_idx, train_idx = perm[:n_val], perm[n_val:]
X_train, y_train, X_val, y_val = X[train_idx], y[train_idx], X[val_idx], y[val_idx]
print(f"train rows {len(X_train)}  validation rows {len(X_val)}")

model = nn.Sequential(nn.Linear(BITS, 64), nn.ReLU(), nn.Linear(64, 1))
opt = torch.optim.Adam(model.parameters(), lr=2e-3)

for epoch in range(EPOCHS):
    order = torch.randperm(len(X_train))
    for start in range(0, len(X_train), BATCH):
        idx = order[start:start + BATCH]
        loss = F.mse_loss(model(X_train[idx]).squeeze(1), y_train[idx])
        opt.zero_grad()
        loss.backward()
        opt.step()
    with torch.no_grad():
        val = F.mse_loss(model(X_val).squeeze(1), y_val).item()
    print(f"epoch {epoch} train mse {loss.item():.4f} val mse {val:.4f}")

with torch.no_grad():
    pred = model(X_val).squeeze(1)
    val_loss = F.mse_loss(pred, y_val).item()
    acc = ((pred - y_val).abs() < 0.5).float().mean().item()
print(f"final_loss={val_loss:.6g} acc={acc:.4f}")
