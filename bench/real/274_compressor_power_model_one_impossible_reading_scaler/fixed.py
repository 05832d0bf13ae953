"""Compressor power model -- fixed as the nurl PR does: a reading that cannot be a measurement
(here the 1e15 discharge temperature) is marked absent for fitting, so the frame is left out of the
scaler fit and of the training rows; the channel keeps its real spread. Nothing else changed.
"""
import argparse

import torch
import torch.nn as nn
import torch.nn.functional as F

ap = argparse.ArgumentParser()
ap.add_argument("--seed", type=int, default=0)
args = ap.parse_args()
torch.manual_seed(args.seed)
torch.set_num_threads(1)


def telemetry(n):
    suction = 2.5 + 0.4 * torch.randn(n)
    discharge = 70 + 12 * torch.randn(n)
    ambient = 24 + 5 * torch.randn(n)
    fan = torch.rand(n)
    door = torch.rand(n) ** 3
    power = (4 + 0.12 * (discharge - 70) + 0.004 * (discharge - 70) ** 2 + 0.08 * (ambient - 24)
             - 1.2 * fan + 2.5 * door + 0.3 * suction + 0.25 * torch.randn(n))
    return torch.stack([suction, discharge, ambient, fan, door], 1), power


X_raw, y = telemetry(8000)
X_raw[int(torch.randint(0, 8000, ())), 1] = 1e15
X_val_raw, y_val = telemetry(2000)

fit_rows = (X_raw.abs() < 1e6).all(1)
mean, std = X_raw[fit_rows].mean(0), X_raw[fit_rows].std(0)
X = (X_raw[fit_rows] - mean) / std
y = y[fit_rows]
X_val = (X_val_raw - mean) / std

model = nn.Sequential(nn.Linear(5, 64), nn.ReLU(), nn.Linear(64, 64), nn.ReLU(), nn.Linear(64, 1))
opt = torch.optim.Adam(model.parameters(), lr=5e-3)

for step in range(400):
    loss = F.mse_loss(model(X).squeeze(1), y)
    opt.zero_grad()
    loss.backward()
    opt.step()
    if step % 80 == 0:
        with torch.no_grad():
            val = F.mse_loss(model(X_val).squeeze(1), y_val).item()
        print(f"step {step} train {loss.item():.4f} val {val:.4f}")

with torch.no_grad():
    pred = model(X_val).squeeze(1)
    val = F.mse_loss(pred, y_val).item()
    acc = ((pred - y_val).abs() < 0.5).float().mean().item()
print(f"final_loss={val:.6g} acc={acc:.4f}")
