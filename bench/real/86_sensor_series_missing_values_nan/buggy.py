"""Multivariate air-quality sensor forecaster trained on a self-built SensEURCity table that still
holds missing readings (NaN): every loss is NaN from the first epoch.

Source: https://github.com/circleAhn/TESLA-tf/issues/1 (Train Nan)
Report: "I followed your instructions and made my own first_col SensEURCity dataset. However,
when training, all my loss is Nan. Is this normal behavior? Or the dataset I used is
incorrect?" Maintainer: "The NaN loss issue you're experiencing is likely due to missing or NaN
values in your dataset. During our experiments, we performed minimal preprocessing to remove
such values before training ..." Reporter: "Problem solved!" Reproduced with a small windowed
forecaster (a GRU over 24 past hourly rows of 6 sensor channels -- NO2, O3, PM10, PM2.5,
temperature, humidity -- predicting the next hour's first column, the reference NO2), MSE, Adam
1e-3, batch 64, on synthetic city-sensor series with daily cycles, min-max scaled with nan-aware
statistics, where individual sensors drop out for short stretches (blank CSV cells -> NaN);
`acc` is the held-out R^2.

expect: data-nonfinite
symptom: nonfinite
batch: 4
"""
import argparse

import numpy as np
import torch
import torch.nn as nn

ap = argparse.ArgumentParser()
ap.add_argument("--seed", type=int, default=0)
args = ap.parse_args()
torch.manual_seed(args.seed)
rng = np.random.RandomState(args.seed)
torch.set_num_threads(1)

T, C, W = 4000, 6, 24
t = np.arange(T)
daily = np.sin(2 * np.pi * t / 24)
traffic = np.clip(np.sin(2 * np.pi * (t - 7) / 24), 0, None) + np.clip(np.sin(2 * np.pi * (t - 16) / 24), 0, None)
temp = 15 + 6 * daily + np.cumsum(rng.randn(T)) * 0.05
hum = 70 - 15 * daily + 3 * rng.randn(T)
no2 = 20 + 25 * traffic + 0.3 * rng.randn(T).cumsum() * 0.1 + 3 * rng.randn(T)
o3 = 60 - 0.8 * no2 + 2 * temp + 4 * rng.randn(T)
pm10 = 18 + 0.2 * no2 + 0.1 * hum + 3 * rng.randn(T)
pm25 = 0.6 * pm10 + 2 * rng.randn(T)
table = np.stack([no2, o3, pm10, pm25, temp, hum], 1)
for _ in range(25):                                   # sensor dropouts: blank cells in the CSV
    c, s = rng.randint(0, C), rng.randint(0, T - 12)
    table[s:s + rng.randint(1, 12), c] = np.nan

lo, hi = np.nanmin(table, 0), np.nanmax(table, 0)
data = (table - lo) / (hi - lo)


def windows(d):
    x = np.stack([d[i:i + W] for i in range(len(d) - W)])
    y = d[W:, 0]
    return x, y


split = int(0.8 * T)
x_train, y_train = windows(data[:split])
x_test, y_test = windows(data[split:])
x_train, y_train = torch.tensor(x_train, dtype=torch.float32), torch.tensor(y_train, dtype=torch.float32)
x_test, y_test = torch.tensor(x_test, dtype=torch.float32), torch.tensor(y_test, dtype=torch.float32)


class Forecaster(nn.Module):
    def __init__(self):
        super().__init__()
        self.gru = nn.GRU(C, 32, batch_first=True)
        self.out = nn.Linear(32, 1)

    def forward(self, x):
        h, _ = self.gru(x)
        return self.out(h[:, -1]).squeeze(1)


model = Forecaster()
optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
loss_fn = nn.MSELoss()
losses = []
for epoch in range(5):
    perm = torch.randperm(len(x_train))
    for i in range(0, len(perm), 64):
        idx = perm[i:i + 64]
        loss = loss_fn(model(x_train[idx]), y_train[idx])
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        losses.append(loss.item())
    print(f"epoch {epoch} loss {np.mean(losses[-40:]):.5f}")

with torch.no_grad():
    pred = model(x_test)
    r2 = 1 - ((pred - y_test) ** 2).mean() / y_test.var()
print(f"final_loss={np.mean(losses[-20:]):.6g} acc={float(r2):.4f}")
