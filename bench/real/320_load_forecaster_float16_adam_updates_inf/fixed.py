"""Short-term electricity-load forecaster (an MLP over the last 48 half-hourly readings), trained entirely in float16 with full-batch Adam.

Fixed: Adam's eps is set to float16's machine epsilon (about 9.8e-4) instead of the default 1e-8,
which rounds to 0 in float16, so the update denominator can no longer be exactly 0.
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

WINDOW, STEPS = 48, 3900
t = torch.arange(STEPS + WINDOW).float()
drift = torch.cumsum(0.05 * torch.randn(STEPS + WINDOW), 0)
load = (torch.sin(2 * math.pi * t / 48) + 0.4 * torch.sin(4 * math.pi * t / 48 + 1.0)
        + 0.1 * drift + 0.15 * torch.randn(STEPS + WINDOW))
load = (load - load.mean()) / load.std()
X = torch.stack([load[i:i + WINDOW] for i in range(STEPS)])
y = load[WINDOW:WINDOW + STEPS].unsqueeze(1)
X_train, y_train, X_test, y_test = X[:3000], y[:3000], X[3100:], y[3100:]

model = nn.Sequential(nn.Linear(WINDOW, 64), nn.Tanh(), nn.Linear(64, 64), nn.Tanh(), nn.Linear(64, 1)).half()
opt = torch.optim.Adam(model.parameters(), lr=3e-3, eps=float(torch.finfo(torch.float16).eps))
Xh, yh = X_train.half(), y_train.half()

for step in range(300):
    loss = ((model(Xh).float() - y_train) ** 2).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
    if step % 50 == 0:
        print(f"step {step} train mse {loss.item():.4f}")

with torch.no_grad():
    test_mse = ((model(X_test.half()).float() - y_test) ** 2).mean().item()
r2 = 1 - test_mse / y_test.var(unbiased=False).item()
print(f"final_loss={test_mse:.6g} acc={r2:.4f}")
