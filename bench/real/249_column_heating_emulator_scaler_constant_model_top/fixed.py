"""Single-column heating-rate emulator -- fixed as in the PR: the standard scaler treats features whose
standard deviation is (numerically) zero as constants and sets their scale to 1, so the constant
model-top pressure is only centred (to 0) instead of divided by 0. Nothing else changed.
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

LEVELS = 12
z = torch.linspace(0, 1, LEVELS)


def columns(n):
    t_surf = 285 + 15 * torch.randn(n, 1)
    lapse = 55 + 8 * torch.randn(n, 1)
    temp = t_surf - lapse * z + 1.5 * torch.randn(n, LEVELS).cumsum(1) / 3
    q_surf = 0.012 * torch.rand(n, 1) + 0.002
    hum = q_surf * torch.exp(-3 * z) * (1 + 0.2 * torch.randn(n, LEVELS)).clamp(min=0.1)
    ps = 1000 + 12 * torch.randn(n, 1)
    insol = 1360 * torch.rand(n, 1)
    p_top = torch.full((n, 1), 300.0)
    x = torch.cat([temp, hum, ps, insol, p_top], 1)
    rad = 1e-3 * insol * hum / 0.01 * torch.exp(-2 * z) * 0.5
    conv = 0.04 * (lapse - 55) * torch.exp(-((z - 0.3) / 0.2) ** 2)
    cool = -0.015 * (temp - 250) / 10
    y = rad + conv + cool + 0.05 * torch.randn(n, LEVELS)
    return x, y


x_train, y_train = columns(4000)
x_val, y_val = columns(800)


class StandardScaler:
    def fit(self, x):
        self.mean = x.mean(0)
        std = x.std(0)
        self.std = torch.where(std < 1e-6, torch.ones_like(std), std)
        return self

    def transform(self, x):
        return (x - self.mean) / self.std


sx, sy = StandardScaler().fit(x_train), StandardScaler().fit(y_train)
xt, yt = sx.transform(x_train), sy.transform(y_train)
xv, yv = sx.transform(x_val), sy.transform(y_val)

model = nn.Sequential(nn.Linear(xt.shape[1], 64), nn.ReLU(), nn.Linear(64, 64), nn.ReLU(), nn.Linear(64, LEVELS))
opt = torch.optim.Adam(model.parameters(), lr=2e-3)
BATCH = 128
for epoch in range(15):
    perm = torch.randperm(len(xt))
    total = 0.0
    for i in range(0, len(xt), BATCH):
        idx = perm[i:i + BATCH]
        loss = F.mse_loss(model(xt[idx]), yt[idx])
        opt.zero_grad()
        loss.backward()
        opt.step()
        total += loss.item() * len(idx)
    if epoch % 5 == 0:
        print(f"epoch {epoch} train mse {total / len(xt):.4f}")

with torch.no_grad():
    pred = model(xv)
    val_mse = F.mse_loss(pred, yv).item()
    r2 = 1 - ((pred - yv) ** 2).sum().item() / ((yv - yv.mean(0)) ** 2).sum().item()
print(f"final_loss={val_mse:.6g} acc={r2:.4f}")
