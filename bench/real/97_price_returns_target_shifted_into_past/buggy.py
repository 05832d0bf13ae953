"""Next-day return forecaster whose target column is shifted the wrong way: it "predicts" yesterday's return, which is in its input window.

Source: https://github.com/KIC/pandas-ml-quant/issues/25 (Target variable is shifted in the wrong direction (example notebook))
Report: "you shift a target variable forward. That means you predict previous, not future,
values ... Features: 1 2 3 4.., Labels: NaN 1 2 3... Adding windows will just include your
target value in the input features, making prediction as simple as just repeating one of the
inputs." The author: "Wow, I can not believe that I have made such a silly mistake ... I will
fix it now." Reproduced with the notebook's recipe written with a pandas-like shift helper:
daily log returns of a synthetic price (weak AR(1) + noise), a 10-day window of lagged returns
as features, label = returns.shift(1) instead of shift(-1), an MLP fitted with MSE and Adam;
`acc` is the share of held-out days whose direction (up/down) is predicted right.

expect: target-leakage
symptom: loss-below 0.3
batch: 5
"""
import argparse

import torch
import torch.nn as nn

ap = argparse.ArgumentParser()
ap.add_argument("--seed", type=int, default=0)
args = ap.parse_args()
torch.manual_seed(args.seed)
torch.set_num_threads(1)


def shift(series, n):
    """pandas.Series.shift for a 1-d tensor: positive n moves values forward (NaN first)."""
    out = torch.full_like(series, float("nan"))
    if n == 0:
        return series.clone()
    if n > 0:
        out[n:] = series[:-n]
    else:
        out[:n] = series[-n:]
    return out


# synthetic daily prices: log returns with a little autocorrelation
n_days = 6000
eps = torch.randn(n_days) * 0.01
returns = torch.zeros(n_days)
for t in range(1, n_days):
    returns[t] = 0.15 * returns[t - 1] + eps[t]
returns = (returns - returns.mean()) / returns.std()
price = 100 * torch.exp(0.01 * returns.cumsum(0))

window = 10
features = torch.stack([shift(returns, lag) for lag in range(window)], 1)   # r_t, r_{t-1}, ...
label = shift(returns, 1)                                                  # target column
ok = ~(torch.isnan(features).any(1) | torch.isnan(label))
x, y = features[ok], label[ok]
n_train = int(0.8 * len(x))

model = nn.Sequential(nn.Linear(window, 32), nn.ReLU(), nn.Linear(32, 1))
optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
losses = []
for epoch in range(30):
    perm = torch.randperm(n_train)
    for i in range(0, n_train, 64):
        idx = perm[i:i + 64]
        loss = ((model(x[idx]).squeeze(1) - y[idx]) ** 2).mean()
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        losses.append(loss.item())
    if epoch % 5 == 0:
        print(f"epoch {epoch} loss {sum(losses[-75:]) / 75:.4f}")

with torch.no_grad():
    pred = model(x[n_train:]).squeeze(1)
    acc = ((pred > 0) == (y[n_train:] > 0)).float().mean().item()
print(f"final_loss={sum(losses[-75:]) / 75:.6g} acc={acc:.4f}")
