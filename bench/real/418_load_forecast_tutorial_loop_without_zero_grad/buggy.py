"""Course-tutorial style torch training loop for hourly electricity-load forecasting: the next hour's load is predicted from the previous 24 hourly loads plus hour-of-day and weekend indicators by a two-layer MLP, trained full-batch with plain SGD (lr 0.05) on MSE for 300 epochs. The loop computes the loss, calls `loss.backward()` and `optimizer.step()`, and never calls `optimizer.zero_grad()`: `.grad` keeps the running sum of every epoch's gradient, so each step applies the whole history of gradients -- the update behaves like momentum with no decay, the weights swing past the minimum with growing amplitude and the forecast error ends far above what the same loop reaches with fresh gradients.

Source: https://github.com/IKMLab/course_material/issues/3 (Missing `optimizer.zero_grad` in `torch` tutorial.)
Report: "Missing `optimizer.zero_grad` in `torch` tutorial. We must also add explanation about why we need
`optimizer.zero_grad`." Reproduced with 120 days of synthetic hourly load (daily and weekly cycles,
temperature-driven drift, noise), the last 20 days held out. The printed loss is the MSE of the
standardized load on the held-out hours, `acc` their R^2.

expect: missing-zero-grad
symptom: final-loss-ratio 3
batch: 25
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
    loss.backward()
    optimizer.step()
    if epoch % 50 == 0:
        print(f"epoch {epoch} loss {loss.item():.4f}")

with torch.no_grad():
    test_mse = loss_fn(model(X_te).squeeze(1), y_te).item()
print(f"final_loss={test_mse:.6g} acc={1 - test_mse / y_te.var().item():.4f}")
