"""fv3fit-style dense model for column physics -- fixed as the PR did: inputs and outputs are
standard-scaled with scalers fitted on the training data, and predictions are denormalised
(nothing else changed).

Source: https://github.com/ai2cm/fv3net/pull/506 (Add normalization to neural networks in fv3fit)
Report / fix: "Motivation: Neural nets often require their inputs and outputs to be normalized
to zero mean and standard deviation of 1 in order to train properly ... This PR adds standard
scaling to inputs and outputs of keras models" (an internal StandardScaler that normalises the
packed inputs and denormalises the outputs, fitted on the training data). Reproduced with
fv3fit's DenseModel in torch (packed input features: air temperature and specific humidity on 12
model levels, surface pressure, cosine of the solar zenith angle, land-sea mask; packed outputs:
dQ1 and dQ2 on 12 levels; Dense-ReLU x3 of width 128, MSE loss, Adam lr 1e-3, mini-batches) on
synthetic columns whose tendencies follow a smooth nonlinear function of the state (radiative
cooling, a convective trigger on lapse rate and moisture, diurnal heating). The model is fitted
on the raw arrays. The printed loss is the validation MSE of the outputs divided by each
output feature's variance (1.0 = predicting the mean), `acc` the validation R^2 of column-
integrated heating.

expect: data-unnormalized
symptom: final-loss-ratio 3
batch: 7
"""
import argparse

import torch
import torch.nn as nn

ap = argparse.ArgumentParser()
ap.add_argument("--seed", type=int, default=0)
args = ap.parse_args()
torch.manual_seed(args.seed)
torch.set_num_threads(1)

LEVELS = 12
NORMALIZE = True


def make_columns(n):
    z = torch.linspace(0, 1, LEVELS)
    t_sfc = 285 + 15 * torch.randn(n, 1)
    lapse = 6.5 + 1.5 * torch.randn(n, 1)
    T = t_sfc - lapse * 12 * z + 1.5 * torch.randn(n, LEVELS)
    rh = torch.sigmoid(torch.randn(n, 1) + 0.8 * torch.randn(n, LEVELS))
    qsat = 3.8e-3 * torch.exp(17.6 * (T - 273.15) / (T - 29.65)) / (1 - 0.6 * z)
    q = (rh * qsat).clamp(1e-6, 3e-2)
    ps = 1.0e5 + 1.2e3 * torch.randn(n, 1)
    cosz = torch.rand(n, 1)
    land = (torch.rand(n, 1) < 0.3).float()
    trigger = torch.sigmoid(4 * (lapse - 7) + 3 * (rh[:, :3].mean(1, keepdim=True) - 0.6))
    profile = torch.exp(-((z - 0.4) / 0.2) ** 2)
    dq1 = (-1.5 + 6.0 * trigger * profile + 2.0 * cosz * (1 + land) * torch.exp(-5 * z)) * 1e-5
    dq2 = (-4.0 * trigger * profile * q / 1e-2 + 0.5 * land * cosz * torch.exp(-8 * z)) * 1e-8
    X = torch.cat([T, q, ps, cosz, land], 1)
    Y = torch.cat([dq1, dq2], 1)
    return X, Y


class StandardScaler:
    def fit(self, a):
        self.mean, self.std = a.mean(0), a.std(0) + 1e-12 * a.abs().mean(0) + 1e-30
        return self

    def normalize(self, a):
        return (a - self.mean) / self.std

    def denormalize(self, a):
        return a * self.std + self.mean


class DenseModel(nn.Module):
    def __init__(self, n_in, n_out, width=128, depth=3):
        super().__init__()
        layers, d = [], n_in
        for _ in range(depth):
            layers += [nn.Linear(d, width), nn.ReLU()]
            d = width
        self.net = nn.Sequential(*layers, nn.Linear(d, n_out))

    def forward(self, x):
        return self.net(x)


X_train, Y_train = make_columns(6000)
X_val, Y_val = make_columns(1500)
x_scaler, y_scaler = StandardScaler().fit(X_train), StandardScaler().fit(Y_train)
model = DenseModel(X_train.shape[1], Y_train.shape[1])
optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)


def pack(x, y=None):
    if not NORMALIZE:
        return x, y
    return x_scaler.normalize(x), None if y is None else y_scaler.normalize(y)


def predict(x):
    out = model(pack(x)[0])
    return y_scaler.denormalize(out) if NORMALIZE else out


for epoch in range(12):
    perm = torch.randperm(len(X_train))
    for k in range(0, len(perm), 64):
        idx = perm[k:k + 64]
        xb, yb = pack(X_train[idx], Y_train[idx])
        loss = nn.functional.mse_loss(model(xb), yb)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    with torch.no_grad():
        pred = predict(X_val)
        nmse = (((pred - Y_val) ** 2).mean(0) / Y_val.var(0)).mean().item()
    print(f"epoch {epoch} train_loss {loss.item():.3e} val_nmse {nmse:.4f}")

with torch.no_grad():
    col_pred, col_true = pred[:, :LEVELS].sum(1), Y_val[:, :LEVELS].sum(1)
    r2 = 1 - ((col_pred - col_true) ** 2).mean() / col_true.var()
print(f"final_loss={nmse:.6g} acc={r2.item():.4f}")
