"""Tutorial-style training loop for hourly load forecasting (24 lags + calendar features, two-layer MLP, full-batch SGD lr 0.05, MSE, 300 epochs).

Fixed: the loop calls `optimizer.zero_grad()` before `loss.backward()`, so each step uses only the current
epoch's gradient.
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

DAYS, LAGS = 120, 24
hours = torch.arange(DAYS * 24).float()
hod = hours % 24
weekend = ((hours // 24) % 7 >= 5).float()
temp = torch.cumsum(torch.randn(DAYS * 24) * 0.05, 0)
load = (1.0 + 0.4 * torch.sin(2 * math.pi * (hod - 7) / 24) + 0.2 * torch.sin(4 * math.pi * hod / 24)
        - 0.25 * weekend + 0.3 * temp + 0.05 * torch.randn(DAYS * 24))
load = (load - load[: 100 * 24].mean()) / load[: 100 * 24].std()

idx = torch.arange(LAGS, DAYS * 24)
lags = torch.stack([load[idx - k] for k in range(1, LAGS + 1)], 1)
calendar = torch.stack([torch.sin(2 * math.pi * hod[idx] / 24), torch.cos(2 * math.pi * hod[idx] / 24), weekend[idx]], 1)
X, y = torch.cat([lags, calendar], 1), load[idx]
split = 100 * 24 - LAGS
X_tr, y_tr, X_te, y_te = X[:split], y[:split], X[split:], y[split:]

model = nn.Sequential(nn.Linear(LAGS + 3, 32), nn.Tanh(), nn.Linear(32, 1))
optimizer = torch.optim.SGD(model.parameters(), lr=0.05)
loss_fn = nn.MSELoss()
for epoch in range(300):
    pred = model(X_tr).squeeze(1)
    loss = loss_fn(pred, y_tr)
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    if epoch % 50 == 0:
        print(f"epoch {epoch} loss {loss.item():.4f}")

with torch.no_grad():
    test_mse = loss_fn(model(X_te).squeeze(1), y_te).item()
print(f"final_loss={test_mse:.6g} acc={1 - test_mse / y_te.var().item():.4f}")
