"""LCO drug-response MLP -- fixed by training on the training cell lines only (the validation cell
lines are no longer aggregated into the training set), so the validation MSE measures prediction for
unseen cell lines; nothing else changed.
"""
import argparse

import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset

ap = argparse.ArgumentParser()
ap.add_argument("--seed", type=int, default=0)
args = ap.parse_args()
torch.manual_seed(args.seed)
torch.set_num_threads(1)

CELLS, DRUGS = 600, 20
expr = torch.randn(CELLS, 20)
fp = (torch.rand(DRUGS, 16) < 0.3).float()
W_c, W_d = torch.randn(20, 4) / 20 ** 0.5, torch.randn(16, 4) / 16 ** 0.5
offset = 0.5 * torch.randn(CELLS)
c_idx = torch.arange(CELLS).repeat_interleave(DRUGS)
d_idx = torch.arange(DRUGS).repeat(CELLS)
signal = ((expr @ W_c)[c_idx] * (fp @ W_d)[d_idx]).sum(1) + torch.tanh(expr[c_idx, 0]) * fp[d_idx, 0]
response = signal + offset[c_idx] + 0.2 * torch.randn(len(c_idx))
X = torch.cat([expr[c_idx], fp[d_idx]], 1)

cell_perm = torch.randperm(CELLS)
val_cells = cell_perm[:120]
is_val = torch.isin(c_idx, val_cells)
train_rows, val_rows = (~is_val).nonzero().squeeze(1), is_val.nonzero().squeeze(1)
fit_rows = train_rows

model = nn.Sequential(nn.Linear(36, 64), nn.ReLU(), nn.Linear(64, 64), nn.ReLU(), nn.Linear(64, 1))
opt = torch.optim.AdamW(model.parameters(), lr=2e-3, weight_decay=0.05)
loader = DataLoader(TensorDataset(X[fit_rows], response[fit_rows]), batch_size=128, shuffle=True)
loss_fn = nn.MSELoss()

for epoch in range(3):
    total = 0.0
    for xb, yb in loader:
        loss = loss_fn(model(xb).squeeze(1), yb)
        opt.zero_grad()
        loss.backward()
        opt.step()
        total += loss.item() * len(xb)
    with torch.no_grad():
        val = loss_fn(model(X[val_rows]).squeeze(1), response[val_rows]).item()
    print(f"epoch {epoch} train_mse {total / len(fit_rows):.4f} val_mse {val:.4f}")

with torch.no_grad():
    pred = model(X[val_rows]).squeeze(1)
    val = loss_fn(pred, response[val_rows]).item()
    acc = ((pred - response[val_rows]).abs() < 0.5).float().mean().item()
print(f"final_loss={val:.6g} acc={acc:.4f}")
