"""Multi-horizon traffic forecaster (the last 48 readings of 12 road sensors -> the next 24
readings of all 12, a two-layer MLP, minibatch Adam) trained under CPU autocast with float16. The
loss is a hand-written mean that keeps everything in the prediction's dtype: the summed squared
error divided by the element count, created as a tensor of the same (float16) dtype. A batch of
256 windows has 256 x 24 x 12 = 73,728 elements, more than float16's maximum of 65,504, so the
denominator is inf and the loss is exactly 0 (NaN when the sum overflows too); either way the
gradient through sum / inf is zero and the forecaster never learns.

Source: https://github.com/chelsea0x3b/dfdx/issues/748 (NaN weights after update with half precision)
Report: "Another issue I had was for taking the mean of a tensor in the loss function, the division
denominator was > 65_000 so it was inf, therefore the loss was always 0, which I fixed by simply
clipping the denominator to 65_000 (bad solution I know)". Reproduced with 4,000 synthetic
windows of 12 sensors (daily and weekly cycles with sensor-specific phase, a shared congestion
factor and noise), MLP 576-128-288, Adam lr 1e-3, batch 256, 10 epochs under
torch.autocast("cpu", dtype=torch.float16). The printed loss is the float32 MSE on 800 held-out
windows, `acc` 1 - that MSE / the MSE of repeating the last reading.

expect: fp16-overflow
symptom: loss-above 0.6
batch: 14
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
    return sq.sum() / torch.tensor(sq.numel(), dtype=sq.dtype)


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
