"""Fuel-economy regression from a CSV table (mpg from cylinders, displacement, horsepower, weight,
acceleration, model year and origin; columns standardised, an MLP, Adam, minibatches cut by hand).
The CSV marks unknown horsepower values with "?"; the loader converts every field with a
permissive float parser that turns "?" into NaN, and nothing checks for it -- the horsepower
column's mean and std become NaN, so every standardised row is NaN, and the training error is NaN
from the first batch on, without any error message.

Source: https://github.com/radiasoft/sirepo/issues/2983 (ml: bad csv data causes regression to silently fail)
Report: "Training a dataset which contains missing values causes the neural network to fail without
an error. For example, if the dataset has a \"?\" or \"Nan\" value rather than a valid float, the
training error output will all be NaN. ... 25.0,4,98.00,?,2046.,19.0,71,1,ford pinto". Reproduced
with an in-memory CSV of 1,200 synthetic cars in the auto-mpg layout (1.5% of the horsepower fields
written as "?"), a 1,000/200 split, an MLP 7-32-32-1, Adam lr 3e-3, batches of 32, 15 epochs. The
printed loss is the validation MSE in standardised units, `acc` the share of validation cars
predicted within 3 mpg.

expect: data-nonfinite
symptom: nonfinite
batch: 12
"""
import argparse
import csv
import io

import torch
import torch.nn as nn

ap = argparse.ArgumentParser()
ap.add_argument("--seed", type=int, default=0)
args = ap.parse_args()
torch.manual_seed(args.seed)
torch.set_num_threads(1)


def synth_csv(n):
    rows = ["mpg,cylinders,displacement,horsepower,weight,acceleration,model year,origin,car name"]
    for i in range(n):
        cyl = [4, 6, 8][torch.randint(0, 3, (1,)).item()]
        disp = cyl * (22 + 8 * torch.rand(1).item())
        hp = 0.45 * disp + 25 + 10 * torch.randn(1).item()
        weight = 1500 + 9 * disp + 200 * torch.randn(1).item()
        acc = 22 - 0.04 * hp + torch.randn(1).item()
        year = torch.randint(70, 83, (1,)).item()
        origin = torch.randint(1, 4, (1,)).item()
        mpg = 52 - 0.006 * weight - 0.05 * hp + 0.6 * (year - 70) + 1.5 * (origin > 1) + 1.8 * torch.randn(1).item()
        hp_field = "?" if torch.rand(1).item() < 0.015 else f"{hp:.1f}"
        rows.append(f"{mpg:.1f},{cyl},{disp:.1f},{hp_field},{weight:.0f}.,{acc:.1f},{year},{origin},car {i}")
    return "\n".join(rows)


def parse_float(field):
    try:
        return float(field)
    except ValueError:
        return float("nan")


reader = csv.reader(io.StringIO(synth_csv(1200)))
header = next(reader)
table = torch.tensor([[parse_float(f) for f in row[:8]] for row in reader])
X, y = table[:, 1:], table[:, :1]

Xtr, ytr, Xva, yva = X[:1000], y[:1000], X[1000:], y[1000:]
mu, sd = Xtr.mean(0), Xtr.std(0)
y_mu, y_sd = ytr.mean(), ytr.std()
Xtr, Xva = (Xtr - mu) / sd, (Xva - mu) / sd
ytr_s, yva_s = (ytr - y_mu) / y_sd, (yva - y_mu) / y_sd

model = nn.Sequential(nn.Linear(7, 32), nn.ReLU(), nn.Linear(32, 32), nn.ReLU(), nn.Linear(32, 1))
opt = torch.optim.Adam(model.parameters(), lr=3e-3)
mse = nn.MSELoss()
for epoch in range(15):
    order = torch.randperm(len(Xtr))
    for i in range(0, len(order), 32):
        idx = order[i:i + 32]
        loss = mse(model(Xtr[idx]), ytr_s[idx])
        opt.zero_grad()
        loss.backward()
        opt.step()
    if epoch % 5 == 0:
        with torch.no_grad():
            print(f"epoch {epoch} train {loss.item():.4f} val {mse(model(Xva), yva_s).item():.4f}")

with torch.no_grad():
    pred = model(Xva)
    val = mse(pred, yva_s).item()
    within = ((pred * y_sd + y_mu - yva).abs() < 3).float().mean().item()
print(f"final_loss={val:.6g} acc={within:.4f}")
