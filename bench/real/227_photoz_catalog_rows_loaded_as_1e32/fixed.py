"""Photometric-redshift regression -- fixed the way the report cleans the catalogue: rows whose values
are not physically possible (any column of magnitude 1e10 or more) are filtered out before
training (nothing else changed).
"""
import argparse

import torch
import torch.nn as nn

ap = argparse.ArgumentParser()
ap.add_argument("--seed", type=int, default=0)
args = ap.parse_args()
torch.manual_seed(args.seed)
torch.set_num_threads(1)

N = 6000
z = torch.rand(N) * 1.5 + 0.02
base = 18 + 3 * torch.rand(N) + 2.5 * torch.log10(1 + z)
slopes = torch.tensor([1.6, 1.0, 0.5, 0.2, 0.0])
mags = base[:, None] + slopes[None, :] * z[:, None] ** 0.8 + 0.05 * torch.randn(N, 5)
ra, dec = torch.rand(N) * 360, torch.rand(N) * 60 - 30
X = torch.cat([mags, ra[:, None], dec[:, None]], dim=1).double()

n_tr = 5000
X_tr, z_tr, X_va, z_va = X[:n_tr].clone(), z[:n_tr], X[n_tr:], z[n_tr:]
bad = torch.randperm(n_tr)[:100]
X_tr[bad] = (torch.rand(100, 7, dtype=torch.float64) * 6 + 0.5) * 1e32

good = (X_tr.abs() < 1e10).all(dim=1)
X_tr, z_tr = X_tr[good], z_tr[good]

center = torch.tensor([20.0, 20.0, 20.0, 20.0, 20.0, 180.0, 0.0], dtype=torch.float64)
scale = torch.tensor([2.0, 2.0, 2.0, 2.0, 2.0, 100.0, 20.0], dtype=torch.float64)
x_tr = ((X_tr - center) / scale).float()
x_va = ((X_va - center) / scale).float()

model = nn.Sequential(nn.Linear(7, 64), nn.ReLU(), nn.Linear(64, 64), nn.ReLU(), nn.Linear(64, 1))
opt = torch.optim.Adam(model.parameters(), lr=2e-3)

for epoch in range(10):
    perm = torch.randperm(len(x_tr))
    for i in range(0, len(perm), 128):
        idx = perm[i:i + 128]
        loss = ((model(x_tr[idx]).squeeze(1) - z_tr[idx]) ** 2).mean()
        opt.zero_grad()
        loss.backward()
        opt.step()
    with torch.no_grad():
        pred = model(x_va).squeeze(1)
        val = ((pred - z_va) ** 2).mean().item()
    print(f"epoch {epoch} train {loss.item():.4g} val {val:.4g}")

acc = (((pred - z_va).abs() / (1 + z_va)) < 0.1).float().mean().item()
print(f"final_loss={val:.6g} acc={acc:.4f}")
