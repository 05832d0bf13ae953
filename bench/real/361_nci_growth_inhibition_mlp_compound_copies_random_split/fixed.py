"""Compound screening regressor -- fixed by de-duplicating the screening table (one row per distinct
fingerprint) before the random train/validation split, so no validation compound has copies among the
training rows and the validation loss measures generalisation to unseen compounds (nothing else changed).
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
    keys, first = torch.unique(x, dim=0, return_inverse=True)[1], {}
    for row, k in enumerate(keys.tolist()):
        first.setdefault(k, row)
    keep = torch.tensor(sorted(first.values()))
    return x[keep], y[keep]


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
