"""Materials-property regression in the style of a feature-selection pipeline (20 composition and
structure descriptors, a StandardScaler-like z-score fitted on the training compounds, an MLP,
Adam, full-batch training, predictions on a separate test set). One descriptor -- the fraction
of f-block elements -- is almost always 0 among the training compounds (a handful of tiny values,
so its standard deviation is ~1e-3), but the test compounds include lanthanide materials where it
is 0.1-0.5. After scaling with the training statistics those test values become outliers in the
hundreds, the network extrapolates linearly from them and the test predictions (and test loss)
blow up although training and validation look fine.

Source: https://github.com/ppdebreuck/modnet/pull/255 (Update vanilla.py)
Report: "Implemented a clipping method after scaling the data. Some features may only have
reasonable values for a subset that wasn't included in the training set and when applying the
scaler on the test set their values blow up. This may cause inf values and overall disruption of
the predictions." Reproduced with 3,000 synthetic training compounds (20 descriptors, band gap
target from a smooth function of 8 of them plus noise, the f-block fraction 0 except for 6
compounds at 0.003-0.01) and 600 test compounds of which a third contain f-block elements, a
20-64-64-1 MLP, Adam lr 3e-3, 400 full-batch steps with a 500-compound validation split. The
printed loss is the test MSE (band gap in eV^2), `acc` the share of test compounds predicted within
0.5 eV.

expect: data-outlier
symptom: loss-above 5
batch: 12
"""
import argparse

import torch
import torch.nn as nn

ap = argparse.ArgumentParser()
ap.add_argument("--seed", type=int, default=0)
args = ap.parse_args()
torch.manual_seed(args.seed)
torch.set_num_threads(1)

w = torch.randn(8) * 0.6


def compounds(n, f_block_share):
    X = torch.rand(n, 20)
    f = torch.zeros(n)
    has_f = torch.rand(n) < f_block_share
    f[has_f] = 0.1 + 0.4 * torch.rand(int(has_f.sum()))
    X[:, 19] = f
    gap = (2.0 + torch.tanh(3 * (X[:, :8] - 0.5)) @ w + 0.8 * X[:, 0] * X[:, 1] + 0.3 * f
           + 0.1 * torch.randn(n)).clamp(min=0)
    return X, gap.unsqueeze(1)


X, y = compounds(3000, 0.0)
X[torch.randperm(3000)[:6], 19] = 0.003 + 0.007 * torch.rand(6)
X_test, y_test = compounds(600, 1 / 3)
tr, va = torch.arange(2500), torch.arange(2500, 3000)

mean, std = X[tr].mean(0), X[tr].std(0)


def scale(A):
    return (A - mean) / std


Xs, Xs_test = scale(X), scale(X_test)

model = nn.Sequential(nn.Linear(20, 64), nn.ReLU(), nn.Linear(64, 64), nn.ReLU(), nn.Linear(64, 1))
opt = torch.optim.Adam(model.parameters(), lr=3e-3)
mse = nn.MSELoss()
for step in range(400):
    loss = mse(model(Xs[tr]), y[tr])
    opt.zero_grad()
    loss.backward()
    opt.step()
    if step % 50 == 0:
        with torch.no_grad():
            print(f"step {step} train {loss.item():.4f} val {mse(model(Xs[va]), y[va]).item():.4f}")

with torch.no_grad():
    pred = model(Xs_test)
    test_mse = mse(pred, y_test).item()
    within = ((pred - y_test).abs() < 0.5).float().mean().item()
print(f"final_loss={test_mse:.6g} acc={within:.4f}")
