"""Power-draw model for a refrigeration compressor (MLP on five telemetry channels -- suction
pressure, discharge temperature, ambient temperature, fan speed, door-open ratio -- trained
full-batch with MSE). The channels are z-scored with a mean/std fitted on the training window. One
corrupt frame in that window carries a discharge-temperature reading of 1e15, a value no sensor can
produce. It moves the fitted standard deviation of that channel to ~1e13, so every real reading is
standardised to about 1e-12 -- the channel that explains most of the power draw is flattened to a
constant for the network, while the one corrupt row sits at ~90 standard deviations -- and the model
settles far above the error it reaches with that channel visible.

Source: https://github.com/nurl-lang/nurl/pull/1102 (anomaly 0.31.0: a reading that cannot be a measurement is flagged, stored, and left out of every fit)
Report: "0.29.0 stopped one reading of `1e200` crashing the service. It did not stop it
**poisoning** the model ... The live scratch model still had `std[y] = 9.0e198` when this was
written: every real reading standardised to nought, so the feature was not being watched at all";
the fix marks such a point "**absent for fitting only**". Reproduced with 8,000 synthetic telemetry
frames (power driven mainly by discharge temperature, plus ambient, fan and door terms and noise),
one frame with a 1e15 reading, Adam (lr 5e-3) for 400 full-batch steps. The printed loss is the MSE
(kW^2) on 2,000 clean held-out frames, `acc` the fraction of held-out predictions within 0.5 kW.

expect: data-outlier
symptom: final-loss-ratio 5
batch: 16
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

fit_rows = torch.ones(len(X_raw), dtype=torch.bool)
mean, std = X_raw[fit_rows].mean(0), X_raw[fit_rows].std(0)
X = (X_raw - mean) / std
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
