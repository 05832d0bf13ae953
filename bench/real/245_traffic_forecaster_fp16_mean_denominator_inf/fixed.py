"""Multi-horizon traffic forecaster under float16 autocast -- fixed: the hand-written mean sums the
squared errors in float32 and divides by the element count as a Python number, so neither the
sum nor the denominator overflows float16 (nothing else changed).
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

SENSORS, PAST, HORIZON = 12, 48, 24
phase = torch.rand(SENSORS) * 2 * math.pi
level = 1 + torch.rand(SENSORS)


def windows(n):
    t0 = torch.randint(0, 24 * 7 * 4, (n, 1)).float()
    t = t0 + torch.arange(PAST + HORIZON).float()
    daily = torch.sin(2 * math.pi * t[..., None] / 24 + phase)
    weekly = 0.5 * torch.sin(2 * math.pi * t[..., None] / (24 * 7) + phase / 2)
    congestion = torch.cumsum(0.1 * torch.randn(n, PAST + HORIZON, 1), dim=1)
    series = level * (daily + weekly) + 0.3 * congestion + 0.2 * torch.randn(n, PAST + HORIZON, SENSORS)
    return series[:, :PAST].reshape(n, -1), series[:, PAST:]


def mean_squared(pred, target):
    sq = (pred - target.to(pred.dtype)) ** 2
    return sq.float().sum() / sq.numel()


train_x, train_y = windows(4000)
test_x, test_y = windows(800)
model = nn.Sequential(nn.Linear(PAST * SENSORS, 128), nn.ReLU(), nn.Linear(128, HORIZON * SENSORS))
opt = torch.optim.Adam(model.parameters(), lr=1e-3)

for epoch in range(10):
    perm = torch.randperm(len(train_x))
    for i in range(0, len(perm) - 255, 256):
        idx = perm[i:i + 256]
        with torch.autocast("cpu", dtype=torch.float16):
            pred = model(train_x[idx]).view(-1, HORIZON, SENSORS)
            loss = mean_squared(pred, train_y[idx])
        opt.zero_grad()
        loss.backward()
        opt.step()
    print(f"epoch {epoch} batch loss {loss.item():.4f}")

with torch.no_grad():
    pred = model(test_x).view(-1, HORIZON, SENSORS)
    mse = ((pred - test_y) ** 2).mean().item()
    naive = ((test_x.view(-1, PAST, SENSORS)[:, -1:, :] - test_y) ** 2).mean().item()
print(f"final_loss={mse:.6g} acc={1 - mse / naive:.4f}")
