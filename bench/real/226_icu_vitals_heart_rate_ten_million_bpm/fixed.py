"""ICU deterioration classifier -- fixed by dropping the physiologically impossible charted values
(heart rate above 300 bpm) before the statistics are computed, so the standardisation reflects real
heart rates (nothing else changed).
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

N = 5000
hr = 85 + 20 * torch.randn(N)
sbp = 120 + 18 * torch.randn(N)
rr = 17 + 4 * torch.randn(N)
temp = 37 + 0.6 * torch.randn(N)
spo2 = 96 + 2 * torch.randn(N)
age = 60 + 15 * torch.randn(N)
risk = 0.12 * (hr - 85) - 0.03 * (sbp - 120) + 0.12 * (rr - 17) + 0.3 * torch.randn(N)
y = (risk > 0.9).float()
X = torch.stack([hr, sbp, rr, temp, spo2, age], dim=1)

n_tr = 4000
X_tr, y_tr, X_va, y_va = X[:n_tr].clone(), y[:n_tr], X[n_tr:].clone(), y[n_tr:]
X_tr[[17, 1203, 3311], 0] = 1e7

keep = X_tr[:, 0] < 300
X_tr, y_tr = X_tr[keep], y_tr[keep]
mu, sd = X_tr.mean(0), X_tr.std(0)
X_tr, X_va = (X_tr - mu) / sd, (X_va - mu) / sd

loader = DataLoader(TensorDataset(X_tr, y_tr), batch_size=64, shuffle=True)
model = nn.Sequential(nn.Linear(6, 32), nn.ReLU(), nn.Linear(32, 32), nn.ReLU(), nn.Linear(32, 1))
opt = torch.optim.Adam(model.parameters(), lr=3e-3)
bce = nn.BCEWithLogitsLoss()

for epoch in range(12):
    for xb, yb in loader:
        loss = bce(model(xb).squeeze(1), yb)
        opt.zero_grad()
        loss.backward()
        opt.step()
    with torch.no_grad():
        logits = model(X_va).squeeze(1)
        val = bce(logits, y_va).item()
    print(f"epoch {epoch} val {val:.4f}")

acc = ((logits > 0).float() == y_va).float().mean().item()
print(f"final_loss={val:.6g} acc={acc:.4f}")
