"""Short-horizon traffic forecaster: an MLP reads the last 12 five-minute vehicle counts of the six
lanes of an intersection and predicts the next count of every lane (MSE, counts divided by 100).
The loop-detector log contains stretches where the controller is in an error state and reports the
code 2046 on every lane instead of a count. Those readings go into the windows and the targets
unchanged: a 2046 is a hundred times a normal count, so the few error stretches dominate the squared
error, the network spends its capacity on predicting when the error code starts and stops, and its
forecasts for ordinary traffic are far worse than a model trained on the clean readings.

Source: https://github.com/JonnoFTW/traffic-prediction/issues/1 (Use Better Handling When Data has errors)
Report: "Sometimes the sensor data jumps from being regular to being in an error state:
2013-01-16 10:30:00,19,25,17,39,8,7 / 2013-01-16 10:35:00,2046,2046,2046,2046,2046,2046 ... 2046
indicates errors from the sensor, we need a way of handling this rather than skipping it".
Reproduced with 40 synthetic days of six-lane counts (daily profile, lane-specific levels, Poisson
noise) in which about 4% of the 5-minute slots fall inside error stretches of 2046s, windows of 12
slots, Adam (lr 1e-3) for 6 epochs of batch 128. The printed loss is the MSE (in hundreds of
vehicles squared) on 6 clean held-out days, `acc` the fraction of held-out forecasts within 5
vehicles of the truth.

expect: data-outlier
symptom: final-loss-ratio 4
batch: 16
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

SLOTS, LANES, WINDOW, ERROR_CODE = 288, 6, 12, 2046.0
lane_level = 10 + 30 * torch.rand(LANES)


def detector_log(days, faults):
    tod = torch.arange(days * SLOTS) % SLOTS / SLOTS
    profile = 0.25 + 0.75 * (torch.exp(-((tod - 0.33) / 0.06) ** 2) + torch.exp(-((tod - 0.72) / 0.08) ** 2))
    counts = torch.poisson(profile[:, None] * lane_level[None, :]).float()
    if faults:
        n_slots = len(counts)
        for start in torch.randint(0, n_slots - 30, (int(0.04 * n_slots / 8),)).tolist():
            counts[start:start + int(torch.randint(3, 14, ()))] = ERROR_CODE
    return counts


def windows(counts):
    x = counts.unfold(0, WINDOW, 1)[:-1].transpose(1, 2).reshape(-1, WINDOW * LANES) / 100
    y = counts[WINDOW:] / 100
    return x, y


X, Y = windows(detector_log(40, faults=True))
X_val, Y_val = windows(detector_log(6, faults=False))

model = nn.Sequential(nn.Linear(WINDOW * LANES, 128), nn.ReLU(), nn.Linear(128, 64), nn.ReLU(),
                      nn.Linear(64, LANES))
opt = torch.optim.Adam(model.parameters(), lr=1e-3)
loader = DataLoader(TensorDataset(X, Y), batch_size=128, shuffle=True)

for epoch in range(6):
    for xb, yb in loader:
        loss = F.mse_loss(model(xb), yb)
        opt.zero_grad()
        loss.backward()
        opt.step()
    with torch.no_grad():
        pred = model(X_val)
        val = F.mse_loss(pred, Y_val).item()
        acc = ((pred - Y_val).abs() * 100 < 5).float().mean().item()
    print(f"epoch {epoch} train {loss.item():.4f} val {val:.5f} within5 {acc:.3f}")

print(f"final_loss={val:.6g} acc={acc:.4f}")
