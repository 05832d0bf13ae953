"""Weld-quality tanh classifier -- fixed as the answer advises: the raw readings are z-normalised with
the training-set mean and standard deviation of each channel before they reach the network, so the
tanh units work in their responsive range. Nothing else changed.
"""
import argparse

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset

ap = argparse.ArgumentParser()
ap.add_argument("--seed", type=int, default=0)
args = ap.parse_args()
torch.manual_seed(args.seed)
torch.set_num_threads(1)

CHANNELS = 20
means = 80 + 320 * torch.rand(CHANNELS)
stds = 5 + 35 * torch.rand(CHANNELS)


def welds(n):
    z = torch.randn(n, CHANNELS)
    score = z[:, 0] * z[:, 1] + 0.8 * z[:, 2] ** 2 - 0.6 * z[:, 3] + 0.3 * torch.randn(n)
    y = torch.where(score > 0.6, 1.0, -1.0)
    return means + stds * z, y


x_train, y_train = welds(4000)
mu, sd = x_train.mean(0), x_train.std(0)


def prepare(x):
    return (x - mu) / sd


x_val, y_val = welds(1000)
train = DataLoader(TensorDataset(prepare(x_train), y_train), batch_size=64, shuffle=True)
xv = prepare(x_val)

model = nn.Sequential(nn.Linear(CHANNELS, 32), nn.Tanh(), nn.Linear(32, 1), nn.Tanh())
opt = torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9)
for epoch in range(15):
    total = 0.0
    for xb, yb in train:
        loss = F.mse_loss(model(xb).squeeze(1), yb)
        opt.zero_grad()
        loss.backward()
        opt.step()
        total += loss.item() * len(yb)
    if epoch % 5 == 0:
        print(f"epoch {epoch} train mse {total / len(y_train):.4f}")

with torch.no_grad():
    out = model(xv).squeeze(1)
    val_mse = F.mse_loss(out, y_val).item()
    acc = ((out > 0).float() * 2 - 1 == y_val).float().mean().item()
print(f"final_loss={val_mse:.6g} acc={acc:.4f}")
