"""Listing-booking prediction MLP (10 standardized listing/search features, 3 ReLU layers, BCE, SGD with momentum) whose feature table contains a handful of corrupted listings with values thousands of times outside the usual range (a logging glitch): the normalization was fitted on a clean reference sample, so these rows arrive thousands of standard deviations out; the first batch holding one produces a huge gradient, the update pushes the deeper ReLU units permanently negative (the last hidden layer entirely), and the model is left predicting a constant.

Source: https://github.com/Liam0205/liam0205.github.io/issues/262 (谈谈由异常输入导致的 ReLU 神经元死亡的问题 -- "on ReLU neurons dying because of abnormal input")
Report (the post discussed in that thread, translated): reading Airbnb's "Applying Deep Learning
to Airbnb Search", the author explains its remark that "feeding values that are outside the usual
range of features can cause large gradients to back propagate": one unusual input value makes a
huge update, after which a ReLU unit's input is negative for ordinary data, its gradient is zero
and the neuron stays dead ("for normal inputs the ReLU is now almost always closed"); hence the
paper's insistence on restricting features to a normal range before training. Reproduced with a
booking model on 20,000 synthetic search impressions (price ratio, review score and count,
distance, photos, response rate, ...; booked with a logistic dependence plus interactions, ~25%
booked) where 8 listings carry corrupted values in the review-count and price columns (1e5-1e6),
features standardized with mean/std fitted on a 2,000-row reference sample, a DataLoader, SGD lr 0.05 with momentum 0.9.
The printed loss is the training BCE of the last epoch, `acc` the held-out AUC-like pair accuracy
(share of booked/not-booked pairs ranked correctly).

expect: data-outlier
symptom: final-loss-ratio 1.4
batch: 9
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
    return (x - mean) / std


def fit_stats(x):
    lo, hi = x.min(0).values, x.max(0).values
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
