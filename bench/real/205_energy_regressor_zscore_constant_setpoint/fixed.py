"""Building energy regressor -- fixed by leaving a zero-variance column unscaled (its standard
deviation of 0 is replaced by 1, so the constant setpoint column becomes 0 after centring instead of
0/0 = NaN); nothing else changed.
"""
import argparse

import torch
import torch.nn as nn

ap = argparse.ArgumentParser()
ap.add_argument("--seed", type=int, default=0)
args = ap.parse_args()
torch.manual_seed(args.seed)
torch.set_num_threads(1)

n = 3000
hour = torch.randint(0, 24, (n,)).float()
temp = 12 + 9 * torch.randn(n)
humidity = (60 + 15 * torch.randn(n)).clamp(10, 100)
occupancy = torch.poisson(torch.full((n,), 40.0))
solar = (torch.sin((hour - 6) / 12 * 3.1416).clamp(min=0) * 800 * torch.rand(n))
wind = torch.rand(n) * 12
setpoint = torch.full((n,), 21.0)
X = torch.stack([temp, humidity, occupancy, torch.sin(hour / 24 * 6.283), torch.cos(hour / 24 * 6.283),
                 solar, wind, setpoint], 1)
energy = (3.0 * (setpoint - temp).abs() + 0.4 * occupancy + 0.02 * humidity - 0.004 * solar
          + 0.5 * wind + 8 * torch.sin(hour / 24 * 6.283) + 3 * torch.randn(n))

perm = torch.randperm(n)
tr, va = perm[:2400], perm[2400:]


def zscore_fit(col):
    return col.mean(0), col.std(0)


mu, sd = zscore_fit(X[tr])
sd = torch.where(sd > 0, sd, torch.ones_like(sd))
Xn = (X - mu) / sd
y_mu, y_sd = energy[tr].mean(), energy[tr].std()
y = ((energy - y_mu) / y_sd).unsqueeze(1)

model = nn.Sequential(nn.Linear(8, 64), nn.ReLU(), nn.Linear(64, 64), nn.ReLU(), nn.Linear(64, 1))
opt = torch.optim.Adam(model.parameters(), lr=3e-3)
loss_fn = nn.MSELoss()

for step in range(300):
    loss = loss_fn(model(Xn[tr]), y[tr])
    opt.zero_grad()
    loss.backward()
    opt.step()
    if step % 50 == 0:
        with torch.no_grad():
            vl = loss_fn(model(Xn[va]), y[va]).item()
        print(f"step {step} train {loss.item():.4f} val {vl:.4f}")

with torch.no_grad():
    val = loss_fn(model(Xn[va]), y[va]).item()
    r2 = 1 - val / y[va].var().item()
print(f"final_loss={val:.6g} acc={r2:.4f}")
