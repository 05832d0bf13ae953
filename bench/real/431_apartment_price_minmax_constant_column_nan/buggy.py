"""Apartment-price regressor in the style of a beginner neural-network helper: a `normalize_data()` step min-max scales every input column and the target to [0, 1] with `(value - min) / (max - min)`, then a small MLP (8 inputs, two hidden layers of 32) is trained with MSE, Adam, batches of 64, 30 epochs and a 20% validation split. The listings all come from one building complex, so the `floors_in_building` column has the same value in every row: its max equals its min, the helper computes 0/0 for the whole column, every input row carries a NaN, and the very first forward pass turns the loss -- and then every weight -- into NaN.

Source: https://github.com/ml5js/ml5-library/issues/1245 (normalizeValue returns NaN when max and min are equal)
Report: "there is an issue that occurs when normalizing data that contains the same max / min values ...
function normalizeValue(value, min, max) { return ((value - min) / (max - min)) } ... (1 -1/1-1) = 0/0 = NaN" --
"It happens during the call to normalizeData ... trainingOptions = { epochs: 30, batchSize: 64, validationSplit: .20
} ... neuralNetwork.save("apt-predict-3")". Reproduced with 1,500 synthetic listings (area, rooms, floor, age,
distance to centre, balcony, parking, and the constant floors-in-building column). The printed loss is the final
validation MSE on the normalized price; `acc` is the share of validation listings predicted within 10% of their price.

expect: constant-feature
symptom: nonfinite
batch: 26
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


def listings(n):
    area = 35 + 90 * torch.rand(n)
    rooms = (area / 28 + torch.rand(n)).floor().clamp(1, 5)
    floor = torch.randint(0, 12, (n,)).float()
    age = 40 * torch.rand(n)
    dist = 0.5 + 9.5 * torch.rand(n)
    balcony = (torch.rand(n) < 0.6).float()
    parking = (torch.rand(n) < 0.3).float()
    floors_in_building = torch.full((n,), 12.0)
    price = (3200 * area * (1 - 0.004 * age) * (1.25 - 0.04 * dist) * (1 + 0.05 * balcony + 0.08 * parking)
             * (1 + 0.01 * floor)) * (1 + 0.04 * torch.randn(n))
    X = torch.stack([area, rooms, floor, age, dist, balcony, parking, floors_in_building], 1)
    return X, price


def normalize_value(value, lo, hi):
    return (value - lo) / (hi - lo)


def normalize_data(X, y):
    lo, hi = X.min(0).values, X.max(0).values
    return normalize_value(X, lo, hi), normalize_value(y, y.min(), y.max()), (y.min(), y.max())


X_raw, price = listings(1500)
X, y, (p_lo, p_hi) = normalize_data(X_raw, price)
n_val = int(0.2 * len(X))
X_tr, y_tr, X_val, y_val = X[n_val:], y[n_val:], X[:n_val], y[:n_val]

model = nn.Sequential(nn.Linear(8, 32), nn.ReLU(), nn.Linear(32, 32), nn.ReLU(), nn.Linear(32, 1))
opt = torch.optim.Adam(model.parameters(), lr=3e-3)
loader = DataLoader(TensorDataset(X_tr, y_tr), batch_size=64, shuffle=True)
for epoch in range(30):
    for xb, yb in loader:
        loss = ((model(xb).squeeze(1) - yb) ** 2).mean()
        opt.zero_grad()
        loss.backward()
        opt.step()
    with torch.no_grad():
        val = ((model(X_val).squeeze(1) - y_val) ** 2).mean().item()
    if epoch % 5 == 4:
        print(f"epoch {epoch + 1} train mse {loss.item():.5f} val mse {val:.5f}")

with torch.no_grad():
    pred_price = model(X_val).squeeze(1) * (p_hi - p_lo) + p_lo
    true_price = y_val * (p_hi - p_lo) + p_lo
    within = ((pred_price - true_price).abs() / true_price < 0.10).float().mean().item()
print(f"final_loss={val:.6g} acc={within:.4f}")
