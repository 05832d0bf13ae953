"""Store-demand regressor scored by k-fold cross-validation (8 tabular features per store-day: price,
promotion depth, temperature, day-of-week encoding, footfall...; an MLP trained full-batch with Adam in
each fold). The frame handed to the cross-validation comes from a transaction-level export, so each
store-day row is repeated once per logged basket -- the same feature-target pair appears 1 to 6
times -- and the duplicates are never removed. The folds are cut over rows, so almost every validation
row has an identical twin in the training folds that the network has already fitted, noise included:
the cross-validated error the script reports is far below the error on genuinely new store-days.

Source: https://github.com/8080labs/ppscore/issues/15 (Overfitting because of duplicate feature-target entries in the sample)
Report: "What about the duplicate entries [of feature-target pair] which could become parts of both
train and test dataset -- they shall be removed otherwise, it is clear overfitting? ... The DataFrame
... is passed to the function `_calculate_model_cv_score_` which can have lots of duplicate rows [i.e.,
feature-target pair] and those duplicates are not being removed at any further step." Reproduced with
1,200 synthetic store-days (demand = nonlinear function of the features plus noise of std 0.5), each
repeated 1-6 times, 4-fold CV over shuffled rows, MLP 8-64-64-1, Adam lr 3e-3, 150 full-batch steps
per fold. The printed loss is the mean cross-validated MSE, `acc` the mean cross-validated R^2.

expect: data-leakage
symptom: loss-below 0.32
batch: 15
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
    return x, y


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
