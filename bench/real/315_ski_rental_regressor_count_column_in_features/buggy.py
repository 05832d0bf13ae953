"""Daily ski-rental demand regressor: a table of days (year, month, day, weekday, holiday flag, snow flag, temperature, rental count) is split into train/test by date, every column except the year is picked as a feature, and an MLP is trained with a DataLoader to predict the rental count. The feature list is built by exclusion and never drops the target itself, so `RentalCount` is fed in as an input column of its own prediction: the network learns to copy it and the test error is near zero -- an impossibly good score that would vanish on real future days whose count is unknown.

Source: https://github.com/MicrosoftDocs/sql-docs/issues/7535 (Target value used both as a feature and a target value in lin_model.fit(X, y))
Report: "`columns` are set to include everything except `'Year'`. Variable representing target column,
`target` is equal to `'Rentalcount'`, which is also included in `columns`. This means that the
`fit` call ... will include target column in both X and y arguments" ("The variable `columns`
shouldn't include the target column"). Reproduced with 1,800 synthetic days (seasonal, weekday,
holiday and snow effects on demand plus day-to-day noise), columns chosen as every name but
"Year", an MLP 7-64-64-1 trained on standardised columns with Adam lr 1e-3, batches of 32 for 25
epochs, the last 20 % of days held out. The printed loss is the test MSE in standardised count
units, `acc` the test R^2.

expect: target-leakage
symptom: loss-below 0.05
batch: 19
"""
import argparse
import math

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset

ap = argparse.ArgumentParser()
ap.add_argument("--seed", type=int, default=0)
args = ap.parse_args()
torch.manual_seed(args.seed)
torch.set_num_threads(1)

DAYS = 1800
day_index = torch.arange(DAYS).float()
table = {
    "Year": 2010 + (day_index // 365),
    "Month": 1 + (day_index % 365) // 30.5,
    "Day": 1 + (day_index % 30),
    "WeekDay": day_index % 7,
    "Holiday": (torch.rand(DAYS) < 0.05).float(),
    "Snow": (torch.rand(DAYS) < 0.3).float(),
    "Temp": -5 + 10 * torch.cos(2 * math.pi * day_index / 365) + 3 * torch.randn(DAYS),
}
season = torch.cos(2 * math.pi * day_index / 365)
weekend = (table["WeekDay"] >= 5).float()
table["RentalCount"] = (200 + 120 * season + 90 * weekend + 150 * table["Holiday"]
                        + 60 * table["Snow"] - 4 * table["Temp"] + 45 * torch.randn(DAYS))

target = "RentalCount"
columns = [c for c in table if c not in ["Year"]]
X = torch.stack([table[c] for c in columns], dim=1)
y = table[target].unsqueeze(1)

split = int(0.8 * DAYS)
x_mu, x_sd = X[:split].mean(0), X[:split].std(0)
y_mu, y_sd = y[:split].mean(), y[:split].std()
X, y = (X - x_mu) / x_sd, (y - y_mu) / y_sd
loader = DataLoader(TensorDataset(X[:split], y[:split]), batch_size=32, shuffle=True)

model = nn.Sequential(nn.Linear(X.shape[1], 64), nn.ReLU(), nn.Linear(64, 64), nn.ReLU(), nn.Linear(64, 1))
opt = torch.optim.Adam(model.parameters(), lr=1e-3)
for epoch in range(25):
    total = 0.0
    for xb, yb in loader:
        loss = F.mse_loss(model(xb), yb)
        opt.zero_grad()
        loss.backward()
        opt.step()
        total += loss.item() * len(xb)
    with torch.no_grad():
        test_mse = F.mse_loss(model(X[split:]), y[split:]).item()
    if epoch % 5 == 0 or epoch == 24:
        print(f"epoch {epoch} train {total / split:.4f} test {test_mse:.4f}")

r2 = 1 - test_mse / y[split:].var(unbiased=False).item()
print(f"final_loss={test_mse:.6g} acc={r2:.4f}")
