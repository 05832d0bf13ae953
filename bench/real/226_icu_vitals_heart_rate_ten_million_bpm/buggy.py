"""ICU deterioration classifier from charted vitals (heart rate, systolic pressure, respiratory
rate, temperature, SpO2, age; columns z-scored with their training mean and standard deviation, an
MLP trained with DataLoader minibatches). A handful of charted heart-rate values are data-entry
artefacts of 10,000,000 bpm. They are kept, so the heart-rate standard deviation is about 10^5
instead of ~20: every real heart rate is squashed to within a few thousandths of the same value,
the network cannot tell tachycardia from a normal rate, and the patients whose risk shows mainly
in their heart rate are missed.

Source: https://github.com/MIT-LCP/mimic-code/issues/2168 (Implausible values in icu.chartevents and hosp.labevents, MIMIC-IV v3.1)
Report: "The affected row fraction is negligible in isolation, but the moment-corruption risk is
disproportionate -- a single value of 10,000,000 bpm is sufficient to invalidate standard deviation
calculations silently." Reproduced with 5,000 synthetic stays (deterioration driven mostly by heart
rate, partly by pressure and respiratory rate), 3 training rows with a heart rate of 1e7, an MLP
6-32-32-1, Adam lr 3e-3, batches of 64, 12 epochs. The printed loss is the validation BCE, `acc`
the validation accuracy.

expect: data-outlier
symptom: acc-below 0.8
batch: 13
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

keep = torch.ones(n_tr, dtype=torch.bool)
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
