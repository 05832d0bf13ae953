"""Fault: data-nonfinite. A tabular regression whose feature table has missing values
(NaN) that were never imputed; the first batch that draws one of those rows turns the
loss NaN and, through the update, every weight after it.

Mechanism: 6 of 4096 rows carry NaN in one column (a sensor that dropped out).
"""
import argparse

import numpy as np
import torch
from torch import nn
from torch.utils.data import DataLoader, TensorDataset

p = argparse.ArgumentParser()
p.add_argument("--seed", type=int, default=0)
p.add_argument("--epochs", type=int, default=2)
args = p.parse_args()

rng = np.random.default_rng(args.seed)
torch.manual_seed(args.seed)
n, d = 4096, 12
X = rng.normal(size=(n, d)).astype(np.float32)
w_true = rng.normal(size=(d,)).astype(np.float32)
y = (X @ w_true + 0.1 * rng.normal(size=n)).astype(np.float32)
bad_rows = rng.choice(n, size=6, replace=False)
X[bad_rows, 3] = np.nan  # the dropped-out sensor: nobody filled these in

ds = TensorDataset(torch.from_numpy(X), torch.from_numpy(y))
loader = DataLoader(ds, batch_size=64, shuffle=True)
model = nn.Sequential(nn.Linear(d, 64), nn.ReLU(), nn.Linear(64, 64), nn.ReLU(), nn.Linear(64, 1))
opt = torch.optim.Adam(model.parameters(), lr=1e-3)
loss_fn = nn.MSELoss()

step = 0
for epoch in range(args.epochs):
    for xb, yb in loader:
        pred = model(xb).squeeze(-1)
        loss = loss_fn(pred, yb)
        opt.zero_grad()
        loss.backward()
        opt.step()
        if step % 10 == 0:
            print(f"epoch {epoch} step {step} loss {loss.item():.4f}")
        step += 1
print("final loss", loss.item())
