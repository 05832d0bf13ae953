"""Fault: fp16-overflow. A revenue regressor trained under torch.autocast(dtype=float16)
"for speed", with targets left in raw currency units (tens to hundreds of thousands).
The output layer must produce values beyond 65504, float16's maximum: as soon as the
first updates push the predictions up, the float16 matmul output overflows to inf and
the loss goes NaN. In float32 or bfloat16 the same script trains.

Mechanism: float16 outputs beyond 65504 under autocast (CPU autocast float16), raw targets.
"""
import argparse

import torch
from torch import nn

ap = argparse.ArgumentParser()
ap.add_argument("--seed", type=int, default=0)
ap.add_argument("--steps", type=int, default=150)
a = ap.parse_args()
torch.manual_seed(a.seed)

X = torch.randn(4000, 12)
revenue = 8e4 + 3e4 * X[:, 0] + 2e4 * X[:, 1].abs()   # currency units, never rescaled
model = nn.Sequential(nn.Linear(12, 64), nn.ReLU(), nn.Linear(64, 64), nn.ReLU(), nn.Linear(64, 1))
opt = torch.optim.Adam(model.parameters(), lr=0.05)
for step in range(a.steps):
    i = torch.randint(0, 4000, (64,))
    with torch.autocast("cpu", dtype=torch.float16):
        pred = model(X[i]).squeeze(-1)
    loss = nn.functional.l1_loss(pred.float(), revenue[i])
    opt.zero_grad()
    loss.backward()
    opt.step()
