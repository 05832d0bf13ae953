"""Daily sea-ice concentration forecaster (input: the previous 5 daily concentration maps on a 16x16
grid; output: the next day's map; a small conv net trained with Adam on windows cut from a multi-year
daily record, minibatches in chronological order sliced by hand). One day deep in the record is a bad
day of the concentration product: its grid was written with the missing-value fill, which the loader
turns into NaN. Every training window that contains that day carries NaNs into the network; the first
batch that holds one makes the loss NaN, Adam writes NaN into every weight, and from then on every
loss and metric is NaN.

Source: https://github.com/icenet-ai/icenet/issues/131 (Improved data analysis tools)
Report: "So there seems to be an anomaly in later records, seemingly consistent with a bad day of SIC
output running through: ... 268/Unknown - loss: 206.2813 ... 269/Unknown - loss: nan - binacc: nan -
mae: nan ... Given four days have been removed already, ... gives 1979-10-01 as the potential
culprit." Reproduced with a synthetic 3-year daily record (seasonal ice edge that advances and
retreats plus smooth weather anomalies), day 700 written as fill values (NaN), windows of 5 input
days, conv net 5-16-16-1 with sigmoid output, Adam lr 2e-3, batch 32, 4 epochs over the windows in
date order. The printed loss is the validation MSE on the last 120 days (x100), `acc` the validation
fraction of cells whose ice/no-ice state (15% threshold) is right.

expect: data-nonfinite
symptom: nonfinite
batch: 15
"""
import argparse
import math

import torch
import torch.nn as nn
import torch.nn.functional as F

ap = argparse.ArgumentParser()
ap.add_argument("--seed", type=int, default=0)
args = ap.parse_args()
torch.manual_seed(args.seed)
torch.set_num_threads(1)

DAYS, GRID, LAG, REPROCESSED_DAY = 3 * 365, 16, 5, 700
lat = torch.linspace(0, 1, GRID)[:, None].expand(GRID, GRID)
lon = torch.linspace(0, 1, GRID)[None, :].expand(GRID, GRID)


def daily_record():
    day = torch.arange(DAYS).float()
    edge = 0.5 + 0.3 * torch.cos(2 * math.pi * (day - 60) / 365)
    anomaly = torch.zeros(DAYS, GRID, GRID)
    state = torch.zeros(GRID, GRID)
    for d in range(DAYS):
        state = 0.9 * state + 0.1 * F.avg_pool2d(torch.randn(1, 1, GRID, GRID), 5, 1, 2)[0, 0] * 3
        anomaly[d] = state
    wobble = 0.08 * torch.sin(6.28 * lon * 2 + day[:, None, None] / 20)
    sic = torch.sigmoid((lat - edge[:, None, None] + wobble + 0.1 * anomaly) * 12)
    return sic


def load_record():
    sic = daily_record()
    sic[REPROCESSED_DAY] = float("nan")
    return sic


def windows(sic, days):
    x = torch.stack([sic[d - LAG:d] for d in days])
    y = torch.stack([sic[d:d + 1] for d in days])
    return x, y


sic = load_record()
train_days = [d for d in range(LAG, DAYS - 120)]
val_days = list(range(DAYS - 120, DAYS))
x_train, y_train = windows(sic, train_days)
x_val, y_val = windows(sic, val_days)

model = nn.Sequential(nn.Conv2d(LAG, 16, 3, padding=1), nn.ReLU(), nn.Conv2d(16, 16, 3, padding=1), nn.ReLU(),
                      nn.Conv2d(16, 1, 3, padding=1), nn.Sigmoid())
opt = torch.optim.Adam(model.parameters(), lr=2e-3)
BATCH = 32
for epoch in range(4):
    total = 0.0
    for i in range(0, len(x_train), BATCH):
        loss = F.mse_loss(model(x_train[i:i + BATCH]), y_train[i:i + BATCH])
        opt.zero_grad()
        loss.backward()
        opt.step()
        total += loss.item() * len(x_train[i:i + BATCH])
    print(f"epoch {epoch} train mse x100 {100 * total / len(x_train):.4f}")

with torch.no_grad():
    pred = model(x_val)
    val_mse = F.mse_loss(pred, y_val).item()
    acc = ((pred > 0.15) == (y_val > 0.15)).float().mean().item()
print(f"final_loss={100 * val_mse:.6g} acc={acc:.4f}")
