"""Daily-transaction forecaster fitted separately for each of 15 bank branches: the input is the last 7 days of debit volume plus a one-hot day of week, passed through BatchNorm and three ReLU Dense layers (32, 64, 128), and the single output unit also uses ReLU, trained with MSE and Adam (lr 1e-3, batch 31). Branches are closed on weekends and holidays, so about a third of the targets were filled with zeros. For some branches the early updates drive the output unit's pre-activation below zero for every input; the output ReLU then returns 0 for all days and passes no gradient, so that branch's model stays dead and forecasts zero forever, while the other branches fit normally.

Source: https://github.com/keras-team/keras/issues/18247 (Neural Network generates zeros as predictions)
Report: "I have the transactional data of 15 branches of a bank ... Since the banking happens only during business
days ... I filled zeros against those dates ... model.add(BatchNormalization()) model.add(Dense(32,
activation='relu')) model.add(Dense(64, activation='relu')) model.add(Dense(128, activation='relu')) ...
model.add(Dense(1, activation='relu')) ... when I fit the model on each branch data separately, the model fits very
well on some branches while for rest" it generates zeros. Reproduced with 600 days of synthetic daily volumes per
branch (branch-specific level, monthly cycle, noise, weekend/holiday zeros), 80/20 chronological split, 20 epochs.
The printed loss is the mean over branches of the held-out MSE divided by the held-out variance; `acc` is the share
of branches whose held-out R^2 exceeds 0.5.

expect: dead-relu
symptom: acc-below 0.95
batch: 26
"""
import argparse
import math

import torch
import torch.nn as nn
import torch.nn.functional as F

ap = argparse.ArgumentParser()
ap.add_argument("--seed", type=int, default=0)
args = ap.parse_args()
torch.manual_seed(args.seed)
torch.set_num_threads(1)

N_BRANCHES, DAYS, LAGS = 15, 600, 7


def branch_series():
    t = torch.arange(DAYS).float()
    level = 800 + 600 * torch.rand(())
    volume = level * (1 + 0.3 * torch.sin(2 * math.pi * t / 30)) * (1 + 0.1 * torch.randn(DAYS))
    closed = ((t % 7) >= 5) | (torch.rand(DAYS) < 0.04)
    return torch.where(closed, torch.zeros_like(volume), volume)


def windows(series):
    X = torch.stack([series[i - LAGS:i] for i in range(LAGS, len(series))])
    dow = F.one_hot(torch.arange(LAGS, len(series)) % 7, 7).float()
    return torch.cat([X, dow], 1), series[LAGS:]


def build_model():
    return nn.Sequential(nn.BatchNorm1d(LAGS + 7),
                         nn.Linear(LAGS + 7, 32), nn.ReLU(),
                         nn.Linear(32, 64), nn.ReLU(),
                         nn.Linear(64, 128), nn.ReLU(),
                         nn.Linear(128, 1), nn.ReLU())


scores, rel_errors = [], []
for branch in range(N_BRANCHES):
    X, y = windows(branch_series())
    n_tr = int(0.8 * len(X))
    model = build_model()
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    for epoch in range(20):
        model.train()
        perm = torch.randperm(n_tr)
        for i in range(0, n_tr, 31):
            idx = perm[i:i + 31]
            loss = ((model(X[idx]).squeeze(1) - y[idx]) ** 2).mean()
            opt.zero_grad()
            loss.backward()
            opt.step()
    model.eval()
    with torch.no_grad():
        pred = model(X[n_tr:]).squeeze(1)
    rel = (((pred - y[n_tr:]) ** 2).mean() / y[n_tr:].var()).item()
    rel_errors.append(rel)
    scores.append(1 - rel)
    print(f"branch {branch:2d} held-out R^2 {1 - rel:.3f} mean forecast {pred.mean().item():.1f}")

acc = sum(s > 0.5 for s in scores) / N_BRANCHES
print(f"final_loss={sum(rel_errors) / N_BRANCHES:.6g} acc={acc:.4f}")
