"""LSTM demand forecaster -- fixed as the answer to the issue suggests: the output layer is linear
(the tanh after the last Linear is removed), so the model can reach targets in their own units
(nothing else changed).
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

WINDOW = 30


def make_series(days):
    t = torch.arange(days).float()
    series = []
    for _ in range(4):
        level = 80 + 60 * torch.rand(1)
        s = level + 0.03 * t + 25 * torch.sin(2 * math.pi * t / 7) + 30 * torch.sin(2 * math.pi * t / 365.25)
        series.append(s + 6 * torch.randn(days))
    return torch.stack(series)


def windows(series):
    xs, ys = [], []
    for s in series:
        for i in range(len(s) - WINDOW):
            xs.append(s[i:i + WINDOW])
            ys.append(s[i + WINDOW])
    return torch.stack(xs).unsqueeze(-1), torch.stack(ys).unsqueeze(-1)


class Forecaster(nn.Module):
    def __init__(self):
        super().__init__()
        self.lstm = nn.LSTM(1, 48, batch_first=True)
        self.out = nn.Sequential(nn.Linear(48, 1))

    def forward(self, x):
        return self.out(self.lstm(x)[0][:, -1])


series = make_series(900)
train, test = series[:, :700], series[:, 700 - WINDOW:]
X_train, y_train = windows(train)
X_test, y_test = windows(test)
scale = train.max()
X_train, X_test = X_train / scale, X_test / scale

model = Forecaster()
opt = torch.optim.Adam(model.parameters(), lr=2e-2)
loss_fn = nn.MSELoss()
loader = DataLoader(TensorDataset(X_train, y_train), batch_size=64, shuffle=True)

for epoch in range(14):
    total, count = 0.0, 0
    for xb, yb in loader:
        loss = loss_fn(model(xb), yb)
        opt.zero_grad()
        loss.backward()
        opt.step()
        total += loss.item() * len(xb)
        count += len(xb)
    print(f"epoch {epoch} mse {total / count:.2f}")

with torch.no_grad():
    pred = model(X_test)
    acc = ((pred - y_test).abs() / y_test < 0.10).float().mean().item()
print(f"final_loss={total / count:.6g} acc={acc:.4f}")
