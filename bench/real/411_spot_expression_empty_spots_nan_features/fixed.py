"""Spatial-transcriptomics regressor (spot image-tile embeddings plus neighbour context -> MLP -> 24 log-normalized genes; Adam lr 1e-3, MSE, DataLoader batches).

Fixed: spots whose feature row is not finite (the empty, out-of-tissue spots and the NaN context they
leak into their neighbours) are dropped from the table before the train/validation split.
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

ROWS, COLS, EMB, GENES = 50, 60, 64, 24
rr, cc = torch.meshgrid(torch.arange(ROWS).float(), torch.arange(COLS).float(), indexing="ij")
in_tissue = ((rr - 25) / 26) ** 2 + ((cc - 30) / 32) ** 2 < 1.0
program = torch.randn(ROWS, COLS, 8)
program = sum(torch.roll(program, (dr, dc), (0, 1)) for dr in (-1, 0, 1) for dc in (-1, 0, 1)) / 3
cells = torch.poisson(torch.full((ROWS, COLS), 6.0)) * in_tissue
to_emb = torch.randn(8, EMB) / 8 ** 0.5
to_gene = torch.randn(8, GENES) / 8 ** 0.5

# per-spot embedding: mean over the cells inside the spot
emb_sum = (program @ to_emb + 0.3 * torch.randn(ROWS, COLS, EMB)) * cells[..., None]
spot_emb = emb_sum / cells[..., None]
neigh = sum(torch.roll(spot_emb, (dr, dc), (0, 1)) for dr, dc in ((0, 1), (0, -1), (1, 0), (-1, 0), (1, 1), (-1, -1))) / 6
features = torch.cat([spot_emb, neigh], -1).reshape(-1, 2 * EMB)
expression = (torch.log1p(torch.relu(program @ to_gene + 1.0) * 3) + 0.1 * torch.randn(ROWS, COLS, GENES)).reshape(-1, GENES)

keep = torch.isfinite(features).all(1)
perm = torch.randperm(len(features))
features, expression, keep = features[perm], expression[perm], keep[perm]
features, expression = features[keep], expression[keep]
n_val = len(features) // 5
X_val, y_val = features[:n_val], expression[:n_val]
X_tr, y_tr = features[n_val:], expression[n_val:]

model = nn.Sequential(nn.Linear(2 * EMB, 128), nn.ReLU(), nn.Linear(128, 64), nn.ReLU(), nn.Linear(64, GENES))
opt = torch.optim.Adam(model.parameters(), lr=1e-3)
loader = DataLoader(TensorDataset(X_tr, y_tr), batch_size=64, shuffle=True)
for epoch in range(15):
    for xb, yb in loader:
        loss = nn.functional.mse_loss(model(xb), yb)
        opt.zero_grad()
        loss.backward()
        opt.step()
    with torch.no_grad():
        val = nn.functional.mse_loss(model(X_val), y_val).item()
    if epoch % 3 == 0:
        print(f"epoch {epoch} train {loss.item():.4f} val {val:.4f}")

with torch.no_grad():
    val = nn.functional.mse_loss(model(X_val), y_val).item()
print(f"final_loss={val:.6g} acc={1 - val / y_val.var(0).mean().item():.4f}")
