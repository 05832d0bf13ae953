"""LSTM forecaster for a daily demand series (windows of 30 past values -> next value, an LSTM and a dense output layer, MSE, Adam, DataLoader) whose output layer ends in a tanh while the targets are in their raw units (tens to a few hundred): the output unit is driven deep into saturation at +1, its derivative is ~0, so almost no gradient reaches the network and the predictions stay pinned at 1 -- the loss never comes down from the scale of the series.

Source: https://github.com/jaungiers/LSTM-Neural-Network-for-Time-Series-Prediction/issues/56 (Predictions are truncated to -1 and 1)
Report: "the output of the model is always between -1 and 1, this makes the fitting of a real-world
data impossible (in case I do not want to do a normalize). May I know how to fix this?" --
a squashing activation on the output cannot reach targets outside [-1, 1]; the fix is a linear
output. Reproduced with 4 synthetic store-demand series (trend + weekly and yearly seasonality +
noise, values roughly 40-260) cut into 30-step windows, inputs divided by the training maximum,
targets left in their units, an LSTM(1, 48) and a Linear(48, 1) followed by tanh, Adam lr 2e-2,
DataLoader batches of 64, 14 epochs. The printed loss is the training MSE of the last epoch,
`acc` the share of held-out forecasts within 10% of the true value.

expect: saturated-activation
symptom: loss-above 5000
batch: 11
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
        self.out = nn.Sequential(nn.Linear(48, 1), nn.Tanh())

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
