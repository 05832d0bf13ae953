"""Fixed version of 38_forecast_nan_in_target/buggy.py (the source and the report are in its docstring).

Fix: drop the windows that contain missing values.
"""
import argparse

import numpy as np
import torch
import torch.nn as nn

ap = argparse.ArgumentParser()
ap.add_argument("--seed", type=int, default=0)
args = ap.parse_args()
rng = np.random.default_rng(args.seed)
torch.manual_seed(args.seed)

t = np.arange(3000)
y = np.sin(2 * np.pi * t / 24) + 0.5 * np.sin(2 * np.pi * t / 168) + 0.1 * rng.standard_normal(3000)
y[rng.choice(3000, 15, replace=False)] = np.nan  # sensor gaps

input_size, h = 48, 12
windows = np.lib.stride_tricks.sliding_window_view(y, input_size + h)
windows = windows[~np.isnan(windows).any(1)]
windows = torch.tensor(windows, dtype=torch.float32)

mlp = nn.Sequential(nn.Linear(input_size, 128), nn.ReLU(), nn.Linear(128, h))
opt = torch.optim.Adam(mlp.parameters(), lr=1e-3)
losses = []
for step in range(200):
    idx = torch.randint(0, len(windows), (32,))
    w = windows[idx]
    loss = nn.functional.l1_loss(mlp(w[:, :input_size]), w[:, input_size:])
    opt.zero_grad()
    loss.backward()
    opt.step()
    losses.append(loss.item())
print(f"final_loss={np.mean(losses[-10:]):.6g} acc={0.0:.4f}")
