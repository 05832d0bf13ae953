"""Listing-booking MLP -- fixed as the post (and the Airbnb paper) prescribe: features are restricted
to their normal range before use, each column clipped to the 0.1st-99.9th percentiles of the reference
sample before standardization (nothing else changed).
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

N, F = 24000, 10
X = torch.randn(N, F)
X[:, 1] = torch.exp(0.5 * torch.randn(N))          # price ratio to neighbourhood
X[:, 2] = torch.exp(1.5 + torch.randn(N))          # review count
logit = (-1.0 * torch.log(X[:, 1]) + 0.5 * torch.log1p(X[:, 2]) + 0.8 * X[:, 3] - 0.6 * X[:, 4]
         + 0.7 * X[:, 5] * X[:, 6] + 0.5 * torch.tanh(2 * X[:, 7]) - 1.8)
y = (torch.rand(N) < torch.sigmoid(2 * logit)).float()
bad = 2000 + torch.randperm(18000)[:8]
X[bad, 2] = 1e5 + 9e5 * torch.rand(8)              # corrupted review counts
X[bad, 1] = 1e5 * torch.rand(8)                    # corrupted price ratios

train_x, train_y, test_x, test_y = X[:20000], y[:20000], X[20000:], y[20000:]


def prepare(x, stats):
    lo, hi, mean, std = stats
    return (torch.minimum(torch.maximum(x, lo), hi) - mean) / std


def fit_stats(x):
    lo, hi = torch.quantile(x, 0.001, dim=0), torch.quantile(x, 0.999, dim=0)
    x = torch.minimum(torch.maximum(x, lo), hi)
    return lo, hi, x.mean(0), x.std(0)


stats = fit_stats(train_x[:2000])          # normalization fitted on a reference sample
train_in, test_in = prepare(train_x, stats), prepare(test_x, stats)
model = nn.Sequential(nn.Linear(F, 64), nn.ReLU(), nn.Linear(64, 64), nn.ReLU(), nn.Linear(64, 32), nn.ReLU(),
                      nn.Linear(32, 1))
optimizer = torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9)
loader = DataLoader(TensorDataset(train_in, train_y), batch_size=128, shuffle=True)
criterion = nn.BCEWithLogitsLoss()

for epoch in range(6):
    total, count = 0.0, 0
    for xb, yb in loader:
        loss = criterion(model(xb).squeeze(1), yb)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        total += loss.item()
        count += 1
    with torch.no_grad():
        h, dead = train_in[:2000], []
        for layer in model:
            h = layer(h)
            if isinstance(layer, nn.ReLU):
                dead.append((h <= 0).all(0).float().mean().item())
    print(f"epoch {epoch} bce {total / count:.4f} dead ReLU units per layer " + " ".join(f"{d:.2f}" for d in dead))

with torch.no_grad():
    s = model(test_in).squeeze(1)
    pos, neg = s[test_y == 1], s[test_y == 0]
    acc = (pos[:, None] > neg[None, :]).float().mean().item()
print(f"final_loss={total / count:.6g} acc={acc:.4f}")
