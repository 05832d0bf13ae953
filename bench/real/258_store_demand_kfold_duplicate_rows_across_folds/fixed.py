"""Store-demand regressor scored by k-fold CV -- fixed as the issue asks: duplicate feature-target rows
are removed (torch.unique over the rows) before the cross-validation, so a store-day can no longer sit
in a training fold and in the validation fold at once. Nothing else changed.
"""
import argparse

import torch
import torch.nn as nn
import torch.nn.functional as F

ap = argparse.ArgumentParser()
ap.add_argument("--seed", type=int, default=0)
args = ap.parse_args()
torch.manual_seed(args.seed)
torch.set_num_threads(1)


def store_days(n):
    x = torch.randn(n, 8)
    demand = (torch.sin(1.5 * x[:, 0]) + 0.8 * x[:, 1] * x[:, 2] - 0.5 * x[:, 3] ** 2 + 0.6 * torch.tanh(2 * x[:, 4])
              + 0.3 * x[:, 5])
    return x, demand + 0.5 * torch.randn(n)


x_days, y_days = store_days(1200)
repeats = torch.randint(1, 7, (1200,))
frame_x = x_days.repeat_interleave(repeats, 0)
frame_y = y_days.repeat_interleave(repeats)


def prepare(x, y):
    rows = torch.unique(torch.cat([x, y[:, None]], 1), dim=0)
    return rows[:, :-1], rows[:, -1]


def cross_validate(x, y, folds=4):
    perm = torch.randperm(len(x))
    x, y = x[perm], y[perm]
    size = len(x) // folds
    scores = []
    for k in range(folds):
        val = torch.zeros(len(x), dtype=torch.bool)
        val[k * size:(k + 1) * size] = True
        model = nn.Sequential(nn.Linear(8, 64), nn.ReLU(), nn.Linear(64, 64), nn.ReLU(), nn.Linear(64, 1))
        opt = torch.optim.Adam(model.parameters(), lr=3e-3)
        for step in range(150):
            loss = F.mse_loss(model(x[~val]).squeeze(1), y[~val])
            opt.zero_grad()
            loss.backward()
            opt.step()
        with torch.no_grad():
            pred = model(x[val]).squeeze(1)
            mse = F.mse_loss(pred, y[val]).item()
            r2 = 1 - mse / y[val].var().item()
        print(f"fold {k} train mse {loss.item():.4f} val mse {mse:.4f}")
        scores.append((mse, r2))
    return sum(s[0] for s in scores) / folds, sum(s[1] for s in scores) / folds


cv_mse, cv_r2 = cross_validate(*prepare(frame_x, frame_y))
print(f"final_loss={cv_mse:.6g} acc={cv_r2:.4f}")
