"""Hourly bike-rental count regressor trained with a Poisson NLL on the predicted rate (log_input=False): log(0) of a zero rate.

Source: https://github.com/pytorch/pytorch/pull/3336 (Prevent numerical issues with poisson_nll_loss when log_input=False)
Report: "Evaluation of the logarithm of the input variable in poisson negative log likelihood
leads to NaN loss if variable being evaluated is zero. Small epsilon is added to prevent this"
(loss = input - target * log(input + eps), as Keras does). The loss of that time,
input - target * log(input), is written out here (today's PoissonNLLLoss has the epsilon) and
used on a rate predicted by a small MLP whose output goes through a ReLU (counts are >= 0);
synthetic bike-sharing hours (stations closed 1-5 am; hour of day, weekday, temperature, humidity, wind; counts drawn
from a Poisson law); DataLoader, Adam. `acc` is the held-out share of hours predicted within
30 % (or 3 bikes).

expect: unstable-op
symptom: nonfinite
batch: 5
"""
import argparse
import math

import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset

ap = argparse.ArgumentParser()
ap.add_argument("--seed", type=int, default=0)
args = ap.parse_args()
torch.manual_seed(args.seed)
torch.set_num_threads(1)


def make(n):
    hour = torch.randint(0, 24, (n,)).float()
    weekday = torch.randint(0, 7, (n,)).float()
    temp, hum, wind = torch.randn(n), torch.randn(n), torch.randn(n).abs()
    workday = (weekday < 5).float()
    peak = workday * (torch.exp(-(hour - 8) ** 2 / 2) + torch.exp(-(hour - 17.5) ** 2 / 3))
    leisure = (1 - workday) * torch.exp(-(hour - 14) ** 2 / 12)
    night = torch.exp(-(hour - 3) ** 2 / 6)
    log_rate = 2.5 + 2.0 * peak + 1.5 * leisure - 2.5 * night + 0.4 * temp - 0.3 * hum - 0.2 * wind
    closed = (hour >= 1) & (hour <= 4)                                # stations closed at night
    y = torch.poisson(torch.exp(log_rate)) * ~closed
    x = torch.stack([torch.sin(2 * math.pi * hour / 24), torch.cos(2 * math.pi * hour / 24),
                     workday, temp, hum, wind], 1)
    return x, y


class PoissonNLLLoss(nn.Module):
    """Poisson negative log likelihood on the rate itself (log_input=False)."""

    def forward(self, input, target):
        return torch.mean(input - target * torch.log(input))


x_train, y_train = make(8000)
x_val, y_val = make(1000)
loader = DataLoader(TensorDataset(x_train, y_train), batch_size=128, shuffle=True)
model = nn.Sequential(nn.Linear(6, 64), nn.ReLU(), nn.Linear(64, 64), nn.ReLU(), nn.Linear(64, 1), nn.ReLU())
criterion = PoissonNLLLoss()
optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
losses = []
for epoch in range(15):
    for xb, yb in loader:
        rate = model(xb).squeeze(1)
        loss = criterion(rate, yb)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        losses.append(loss.item())
    print(f"epoch {epoch} loss {sum(losses[-len(loader):]) / len(loader):.4f}")

with torch.no_grad():
    pred = model(x_val).squeeze(1)
    acc = ((pred - y_val).abs() <= torch.clamp(0.3 * y_val, min=3)).float().mean().item()
print(f"final_loss={sum(losses[-len(loader):]) / len(loader):.6g} acc={acc:.4f}")
