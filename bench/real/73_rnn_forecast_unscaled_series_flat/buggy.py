"""Recurrent forecaster fitted on a raw (unscaled) series in the hundreds: it predicts a flat line.

Source: https://github.com/unit8co/darts/issues/779 (Forecast issue)
Report: "I getting the above forecasts [flat lines] ... The first is for RNN and the second is
for NBEATS model ... model = RNNModel(input_chunk_length=16, output_chunk_length=12);
model.fit(train)"; others: "We have a similar issue". Maintainer's answer: "when using deep
learning models, it is recommended to scale the train series before fitting the model
(standardize, normalize), then predict the desired forecast horizon, and after that inverse
scale the predictions". Reproduced with a small vanilla RNN forecaster in plain torch (darts'
RNNModel defaults: 1 layer, 25 hidden units, Adam 1e-3, MSE; 16 steps in, 12 out) on a synthetic
monthly-demand series (level ~800, trend, yearly season, noise); `acc` is the R^2 of the 12-step
forecasts on the held-out last 20 % in original units.

expect: data-unnormalized
symptom: acc-below 0.3
batch: 3
"""
import argparse

import numpy as np
import torch
import torch.nn as nn

ap = argparse.ArgumentParser()
ap.add_argument("--seed", type=int, default=0)
args = ap.parse_args()
torch.manual_seed(args.seed)
rng = np.random.RandomState(args.seed)
torch.set_num_threads(1)

IN, OUT = 16, 12
t = np.arange(900)
series = 800 + 0.4 * t + 150 * np.sin(2 * np.pi * t / 12) + 60 * np.sin(2 * np.pi * t / 5.5) + 25 * rng.randn(900)
split = int(0.8 * len(series))
train, val = series[:split], series[split - IN:]


class Scaler:
    def fit(self, x):
        self.mu, self.sd = x.mean(), x.std()
        return self

    def transform(self, x):
        return (x - self.mu) / self.sd

    def inverse_transform(self, x):
        return x * self.sd + self.mu


class Identity:
    def fit(self, x):
        return self

    def transform(self, x):
        return x

    def inverse_transform(self, x):
        return x


def windows(x):
    X = np.stack([x[i:i + IN] for i in range(len(x) - IN - OUT + 1)])
    Y = np.stack([x[i + IN:i + IN + OUT] for i in range(len(x) - IN - OUT + 1)])
    return torch.tensor(X, dtype=torch.float32).unsqueeze(-1), torch.tensor(Y, dtype=torch.float32)


class RNNForecaster(nn.Module):
    def __init__(self, hidden=25):
        super().__init__()
        self.rnn = nn.RNN(1, hidden, batch_first=True)
        self.head = nn.Linear(hidden, OUT)

    def forward(self, x):
        out, _ = self.rnn(x)
        return self.head(out[:, -1])


scaler = Identity().fit(train)
Xtr, Ytr = windows(scaler.transform(train))
Xva, Yva = windows(scaler.transform(val))
model = RNNForecaster()
opt = torch.optim.Adam(model.parameters(), lr=1e-3)
loss_fn = nn.MSELoss()
losses = []
for epoch in range(12):
    perm = torch.randperm(len(Xtr))
    for i in range(0, len(perm), 32):
        idx = perm[i:i + 32]
        loss = loss_fn(model(Xtr[idx]), Ytr[idx])
        opt.zero_grad()
        loss.backward()
        opt.step()
        losses.append(loss.item())
    print(f"epoch {epoch} train_loss {np.mean(losses[-23:]):.4f}")

with torch.no_grad():
    pred = scaler.inverse_transform(model(Xva).numpy())
truth = scaler.inverse_transform(Yva.numpy())
r2 = 1 - ((pred - truth) ** 2).sum() / ((truth - truth.mean()) ** 2).sum()
print(f"forecast std {pred.std():.1f} vs truth std {truth.std():.1f}")
print(f"final_loss={sum(losses[-10:]) / 10:.6g} acc={max(r2, 0.0):.4f}")
