"""Exact Gaussian-process regression on process settings: the same program with the input standardisation giving a column whose training standard deviation is 0 a scale of 1 (it is only centred), so the constant furnace-pressure column becomes 0 instead of 0 / 0 = NaN and the kernel hyperparameters fit normally.
"""
import argparse
import math

import torch

ap = argparse.ArgumentParser()
ap.add_argument("--seed", type=int, default=0)
args = ap.parse_args()
torch.manual_seed(args.seed)
torch.set_num_threads(1)
torch.set_default_dtype(torch.float64)

N_TRAIN, N_TEST, DIMS, CONSTANT_COL = 300, 200, 5, 3


def process_runs(n):
    x = torch.rand(n, DIMS) * torch.tensor([800.0, 60.0, 5.0, 2.0, 1.0]) + torch.tensor([400.0, 0.0, 1.0, 1.0, 0.0])
    x[:, CONSTANT_COL] = 1.5
    t, dwell, carbon = (x[:, 0] - 800) / 400, (x[:, 1] - 30) / 30, (x[:, 2] - 3.5) / 2.5
    y = torch.sin(2.0 * t) + 0.5 * dwell ** 2 + 0.8 * carbon * t + 0.3 * x[:, 4] + 0.05 * torch.randn(n)
    return x, y


def fit_scaler(x):
    sd = x.std(0)
    return x.mean(0), torch.where(sd > 0, sd, torch.ones_like(sd))


def rbf(a, b, log_ls, log_sf):
    d = (a[:, None, :] - b[None, :, :]) / log_ls.exp()
    return (2 * log_sf).exp() * torch.exp(-0.5 * (d ** 2).sum(-1))


X_train, y_train = process_runs(N_TRAIN)
X_test, y_test = process_runs(N_TEST)
mu, sd = fit_scaler(X_train)
Z_train, Z_test = (X_train - mu) / sd, (X_test - mu) / sd
y_mean = y_train.mean()

log_ls = torch.zeros(DIMS, requires_grad=True)
log_sf = torch.zeros((), requires_grad=True)
log_sn = torch.tensor(math.log(0.3), requires_grad=True)
opt = torch.optim.Adam([log_ls, log_sf, log_sn], lr=0.05)
r = y_train - y_mean

for step in range(120):
    K = rbf(Z_train, Z_train, log_ls, log_sf) + ((2 * log_sn).exp() + 1e-6) * torch.eye(N_TRAIN)
    L = torch.linalg.cholesky_ex(K).L
    alpha = torch.cholesky_solve(r[:, None], L)
    nll = 0.5 * (r[:, None] * alpha).sum() + torch.log(torch.diagonal(L)).sum() + 0.5 * N_TRAIN * math.log(2 * math.pi)
    opt.zero_grad()
    nll.backward()
    opt.step()
    if step % 30 == 29:
        with torch.no_grad():
            pred = y_mean + rbf(Z_test, Z_train, log_ls, log_sf) @ alpha[:, 0]
            test_mse = ((pred - y_test) ** 2).mean().item()
            acc = ((pred - y_test).abs() < 0.3).float().mean().item()
        print(f"step {step + 1} nll/n {nll.item() / N_TRAIN:.4f} test_mse {test_mse:.4f} within0.3 {acc:.3f}")

print(f"final_loss={test_mse:.6g} acc={acc:.4f}")
