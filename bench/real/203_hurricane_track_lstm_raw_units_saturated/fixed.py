"""Hurricane forecaster -- fixed as in the report: inputs and targets go through a RobustScaler-style
transform (training median and interquartile range) instead of being used in raw units, and
forecasts are mapped back for evaluation; nothing else changed.
"""
import argparse

import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset

ap = argparse.ArgumentParser()
ap.add_argument("--seed", type=int, default=0)
args = ap.parse_args()
torch.manual_seed(args.seed)
torch.set_num_threads(1)

storms, T = 400, 24
t = torch.arange(T).float()
lat = 12 + 5 * torch.rand(storms, 1) + (0.3 + 0.3 * torch.rand(storms, 1)) * t + 0.01 * t ** 2
lon = -40 - 20 * torch.rand(storms, 1) - (0.8 - 0.05 * t) * t * torch.rand(storms, 1)
peak = 60 + 90 * torch.rand(storms, 1)
wind = 25 + (peak - 25) * torch.exp(-((t - 10 - 4 * torch.rand(storms, 1)) / 6) ** 2)
wind = wind + 3 * torch.randn(storms, T)
pressure = 1012 - 0.0095 * wind ** 2 - 0.6 * wind + 2 * torch.randn(storms, T)
obs = torch.stack([lat + 0.1 * torch.randn(storms, T), lon + 0.1 * torch.randn(storms, T), wind, pressure], -1)

X = torch.stack([obs[:, i:i + 4] for i in range(T - 4)], 1).reshape(-1, 4, 4)
Y = torch.stack([obs[:, i + 4] for i in range(T - 4)], 1).reshape(-1, 4)
n_train = 320 * (T - 4)
Xtr, Ytr, Xva, Yva = X[:n_train], Y[:n_train], X[n_train:], Y[n_train:]


class RobustScaler:
    def fit(self, A):
        self.center = A.median(0).values
        q = torch.quantile(A, torch.tensor([0.25, 0.75]), dim=0)
        self.scale = q[1] - q[0]
        return self

    def transform(self, A):
        return (A - self.center) / self.scale

    def inverse(self, A):
        return A * self.scale + self.center


scaler = RobustScaler().fit(Xtr.reshape(-1, 4))
Xtr_s, Xva_s = scaler.transform(Xtr), scaler.transform(Xva)
Ytr_s, Yva_s = scaler.transform(Ytr), scaler.transform(Yva)


class Forecaster(nn.Module):
    def __init__(self):
        super().__init__()
        self.lstm = nn.LSTM(4, 32, batch_first=True)
        self.head = nn.Linear(32, 4)

    def forward(self, x):
        h, _ = self.lstm(x)
        return self.head(h[:, -1])


model = Forecaster()
opt = torch.optim.SGD(model.parameters(), lr=0.03, momentum=0.9)
mse = nn.MSELoss()
loader = DataLoader(TensorDataset(Xtr_s, Ytr_s), batch_size=64, shuffle=True)
for epoch in range(6):
    for xb, yb in loader:
        loss = mse(model(xb), yb)
        opt.zero_grad()
        loss.backward()
        opt.step()
    with torch.no_grad():
        pred = model(Xva_s)
        val = mse(pred, Yva_s).item()
    print(f"epoch {epoch} train {loss.item():.4f} val {val:.4f}")

wind_err = (scaler.inverse(pred)[:, 2] - Yva[:, 2]).abs()
print(f"final_loss={val:.6g} acc={(wind_err < 10).float().mean().item():.4f}")
