"""Pattern forecaster: a deep MLP reads the last 28 hourly values of a scaled sensor series and
predicts the next 7 (tanh output, MSE, SGD with momentum). It is built as eleven Linear + Sigmoid
hidden layers that widen to 450 units and narrow again. Each sigmoid multiplies the backward signal by
at most 0.25 and the default initialisation keeps the layers' gains below 1, so the gradient that
reaches the lower layers is orders of magnitude smaller than at the top: the lower ten layers
effectively do not train, the input signal reaching the head is washed out, and the loss stays at the
level of predicting the series mean.

Source: https://github.com/torch/optim/issues/164 (Optim does not update weights on big MLP network)
Report: "I try training network for regression task with optim.sgd. But I see strange thing. If I add
to network > 12-16 layers to my MLP, optim does not change weights and network does not learning.
Network begin learning if I decrease number of layers." -- with a Linear/Sigmoid stack 28-56-58-112-
114-224-226-448-450-224-112-56-7 and a Tanh output. Reproduced with that layer stack on a synthetic
hourly series (daily and weekly cycles plus noise, scaled to [-0.8, 0.8]), 6,000 training windows,
SGD (lr 0.05, momentum 0.9) for 12 epochs of batch 64. The printed loss is the MSE on 1,500 held-out
windows, `acc` the fraction of held-out forecasts within 0.1 of the truth.

expect: vanishing-gradient
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

WIDTHS = [28, 56, 58, 112, 114, 224, 226, 448, 450, 224, 112, 56]
ACT = nn.Sigmoid


def series(hours):
    t = torch.arange(hours).float()
    phase = 2 * math.pi * torch.rand(2)
    s = (torch.sin(2 * math.pi * t / 24 + phase[0]) + 0.5 * torch.sin(2 * math.pi * t / 168 + phase[1])
         + 0.25 * torch.sin(2 * math.pi * t / 12) + 0.15 * torch.randn(hours))
    return 0.8 * s / s.abs().max()


def windows(s):
    w = s.unfold(0, 35, 1)
    return w[:, :28], w[:, 28:]


X, Y = windows(series(6034))
X_val, Y_val = windows(series(1534))

layers = []
for a, b in zip(WIDTHS[:-1], WIDTHS[1:]):
    layers += [nn.Linear(a, b), ACT()]
model = nn.Sequential(*layers, nn.Linear(WIDTHS[-1], 7), nn.Tanh())
opt = torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9)
loader = DataLoader(TensorDataset(X, Y), batch_size=64, shuffle=True)

for epoch in range(12):
    for xb, yb in loader:
        loss = F.mse_loss(model(xb), yb)
        opt.zero_grad()
        loss.backward()
        opt.step()
    with torch.no_grad():
        pred = model(X_val)
        val = F.mse_loss(pred, Y_val).item()
        acc = ((pred - Y_val).abs() < 0.1).float().mean().item()
    print(f"epoch {epoch} train {loss.item():.4f} val {val:.4f} within0.1 {acc:.3f}")

print(f"final_loss={val:.6g} acc={acc:.4f}")
