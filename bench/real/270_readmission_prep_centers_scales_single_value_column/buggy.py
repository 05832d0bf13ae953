"""30-day readmission classifier (tabular MLP, binary cross-entropy, mini-batches from a DataLoader)
whose prep_data step centres and scales every numeric column before training. The extract was pulled
for a single payer, so the column `medicaid` holds one value (1) for every encounter; centring and
scaling it divides 0 by a standard deviation of 0, the column becomes all NaN, and every forward
pass, loss and gradient after it is NaN.

Source: https://github.com/HealthCatalyst/healthcareai-r/issues/1244 (Remove columns with near zero varience before center/scale step in prep_data)
Report: "Whenever a column has only one value, when it gets centered and scaled, the step converts
that column to all NAs. And if NAs are fed into the PCA step, it fails. Removing near zero variance
columns before centering and scaling would fix this." Reproduced with 5,000 synthetic encounters
(age, length of stay, prior admissions, number of medications, HbA1c, discharge-to-home flag, and
the single-valued payer flag), readmission drawn from a logistic model of the varying columns, an
MLP trained with Adam (lr 1e-3) for 4 epochs of batch 64. The printed loss is the BCE on 1,500
held-out encounters, `acc` the accuracy there.

expect: constant-feature
symptom: nonfinite
batch: 16
"""
import argparse

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset

ap = argparse.ArgumentParser()
ap.add_argument("--seed", type=int, default=0)
args = ap.parse_args()
torch.manual_seed(args.seed)
torch.set_num_threads(1)

COLUMNS = ["age", "los_days", "prior_admits", "n_meds", "hba1c", "to_home", "medicaid"]


def extract(n):
    age = 18 + 75 * torch.rand(n)
    los = torch.distributions.Gamma(2.0, 0.5).sample((n,))
    prior = torch.poisson(torch.full((n,), 1.2))
    meds = torch.poisson(torch.full((n,), 9.0))
    hba1c = 5 + 4 * torch.rand(n)
    home = (torch.rand(n) < 0.7).float()
    medicaid = torch.ones(n)
    logit = (-0.8 + 0.07 * (age - 55) + 0.35 * (los - 4) + 1.2 * prior + 0.1 * (meds - 9)
             + 0.7 * (hba1c - 7) - 1.8 * home)
    y = (torch.rand(n) < torch.sigmoid(logit)).float()
    return torch.stack([age, los, prior, meds, hba1c, home, medicaid], 1), y


def prep_data(train, *others, numeric=COLUMNS):
    idx = [COLUMNS.index(c) for c in numeric]
    center, scale = train[:, idx].mean(0), train[:, idx].std(0)
    return [(t[:, idx] - center) / scale for t in (train, *others)]


X_raw, y = extract(5000)
X_test_raw, y_test = extract(1500)
X, X_test = prep_data(X_raw, X_test_raw)

model = nn.Sequential(nn.Linear(X.shape[1], 32), nn.ReLU(), nn.Linear(32, 16), nn.ReLU(), nn.Linear(16, 1))
opt = torch.optim.Adam(model.parameters(), lr=1e-3)
loader = DataLoader(TensorDataset(X, y), batch_size=64, shuffle=True)

for epoch in range(4):
    for xb, yb in loader:
        loss = F.binary_cross_entropy_with_logits(model(xb).squeeze(1), yb)
        opt.zero_grad()
        loss.backward()
        opt.step()
    with torch.no_grad():
        logits = model(X_test).squeeze(1)
        test_loss = F.binary_cross_entropy_with_logits(logits, y_test).item()
        acc = ((logits > 0).float() == y_test).float().mean().item()
    print(f"epoch {epoch} train {loss.item():.4f} test {test_loss:.4f} acc {acc:.3f}")

print(f"final_loss={test_loss:.6g} acc={acc:.4f}")
