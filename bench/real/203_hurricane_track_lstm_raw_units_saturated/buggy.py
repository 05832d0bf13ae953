"""Hurricane track and intensity forecaster (an LSTM reads the last four 6-hourly best-track
observations -- latitude, longitude, maximum wind in knots, minimum central pressure in millibars
-- and predicts the next observation; MSE, SGD with momentum, DataLoader). The observations are
fed to the network in their raw units: the pressure column sits around 950-1010 and the wind
column between 20 and 150, so the first forward passes produce errors in the hundreds of
thousands and huge gradients; the first updates drive the LSTM's gates and cell into saturation
for every input, after which the network can only emit one near-constant forecast and the loss
stays in the thousands (the reporter's run went on to NaN).

Source: https://github.com/hammad93/hurricane-net/issues/1 (Scaling input for deep learning)
Report: "Previously, the deep learning model has an exploding gradient because the features were not
scaled and the tensors converged to NaN. After further analysis, the best way to standardize and
scale the features using RobustScaler". Reproduced with 400 synthetic storms of 24 observations
(a curving track, intensity that rises and decays, pressure tied to wind by a wind-pressure
relation, plus noise), sliding windows of 4 -> 1, an LSTM(4, 32) with a linear head, SGD lr 0.03
momentum 0.9, batches of 64, 6 epochs; the fixed version applies a RobustScaler-style transform
(median and interquartile range of the training windows) to inputs and targets and undoes it for
evaluation. The printed loss is the validation MSE in the model's target space, `acc` the share of
validation forecasts whose wind is within 10 kt.

expect: data-unnormalized
symptom: acc-below 0.5
batch: 12
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


Xtr_s, Xva_s = Xtr, Xva
Ytr_s, Yva_s = Ytr, Yva


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

wind_err = (pred[:, 2] - Yva[:, 2]).abs()
print(f"final_loss={val:.6g} acc={(wind_err < 10).float().mean().item():.4f}")
