"""Greenhouse GRU forecaster -- fixed as in the report: the standardiser sets the scale of a constant
channel to 1 (the CO2 set-point is centred to zero instead of divided by a zero standard
deviation), so no 0/0 reaches the network (nothing else changed).
"""
import argparse
import math

import torch
import torch.nn as nn

ap = argparse.ArgumentParser()
ap.add_argument("--seed", type=int, default=0)
args = ap.parse_args()
torch.manual_seed(args.seed)
torch.set_num_threads(1)

HOURS, WIN = 4000, 24
t = torch.arange(HOURS).float()
light = (torch.sin(2 * math.pi * t / 24) + 0.2 * torch.randn(HOURS)).clamp(min=0) * 800
vent = (torch.rand(HOURS) < 0.3).float()
humid = 70 + 10 * torch.sin(2 * math.pi * (t + 6) / 24) + 3 * torch.randn(HOURS)
temp = torch.zeros(HOURS)
temp[0] = 20.0
for h in range(1, HOURS):
    temp[h] = (0.85 * temp[h - 1] + 0.15 * 18 + 0.004 * light[h - 1] - 1.2 * vent[h - 1]
               + 0.3 * torch.randn(()))
co2_setpoint = torch.full((HOURS,), 800.0)
series = torch.stack([temp, humid, light, vent, co2_setpoint], 1)

split = HOURS - 600


class Standardiser:
    def fit(self, x):
        self.mean, self.std = x.mean(0), x.std(0)
        self.std[self.std == 0] = 1.0
        return self

    def transform(self, x):
        return (x - self.mean) / self.std


scaler = Standardiser().fit(series[:split])
z = scaler.transform(series)


def windows(lo, hi, stride):
    starts = torch.arange(lo, hi - WIN, stride)
    x = torch.stack([z[s:s + WIN] for s in starts.tolist()])
    y = torch.stack([z[s + WIN, 0] for s in starts.tolist()])
    return x, y


x_tr, y_tr = windows(0, split, 2)
x_te, y_te = windows(split - WIN, HOURS, 1)


class Forecaster(nn.Module):
    def __init__(self):
        super().__init__()
        self.gru = nn.GRU(5, 32, batch_first=True)
        self.head = nn.Linear(32, 1)

    def forward(self, x):
        out, _ = self.gru(x)
        return self.head(out[:, -1]).squeeze(1)


model = Forecaster()
opt = torch.optim.RMSprop(model.parameters(), lr=2e-3)
for epoch in range(5):
    perm = torch.randperm(len(x_tr))
    total = 0.0
    for i in range(0, len(perm), 64):
        idx = perm[i:i + 64]
        loss = ((model(x_tr[idx]) - y_tr[idx]) ** 2).mean()
        opt.zero_grad()
        loss.backward()
        opt.step()
        total += loss.item() * len(idx)
    print(f"epoch {epoch + 1} mse {total / len(x_tr):.4f}")

with torch.no_grad():
    err_deg = (model(x_te) - y_te).abs() * scaler.std[0]
acc = (err_deg < 1.0).float().mean().item()
print(f"final_loss={total / len(x_tr):.6g} acc={acc:.4f}")
