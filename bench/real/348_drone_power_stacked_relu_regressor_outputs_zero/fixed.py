"""Stacked-ReLU drone power regressor -- fixed as the write-up concludes, by lowering the learning rate
from 0.03 to 0.001, so the early large-error batches no longer push a whole hidden layer into the
all-negative region (nothing else changed).
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

LR = 0.001


def flights(n):
    v = torch.randn(n, 2)
    power = 2 * v[:, 0] ** 2 + v[:, 1] ** 2 + v[:, 0] * v[:, 1] + 0.1 * torch.randn(n)
    return v, power.unsqueeze(1)


X_train, y_train = flights(2000)
X_test, y_test = flights(1000)
model = nn.Sequential(nn.Linear(2, 4), nn.ReLU(), nn.Linear(4, 4), nn.ReLU(),
                      nn.Linear(4, 4), nn.ReLU(), nn.Linear(4, 1))
opt = torch.optim.SGD(model.parameters(), lr=LR)

for epoch in range(20):
    order = torch.randperm(len(X_train))
    for i in range(0, len(order), 10):
        idx = order[i:i + 10]
        loss = F.mse_loss(model(X_train[idx]), y_train[idx])
        opt.zero_grad()
        loss.backward()
        opt.step()
    with torch.no_grad():
        pred = model(X_test)
        test_mse = F.mse_loss(pred, y_test).item()
        within = ((pred - y_test).abs() < 1.0).float().mean().item()
    if epoch % 4 == 3:
        print(f"epoch {epoch} test mse {test_mse:.4f} within-1 {within:.3f}")

print(f"final_loss={test_mse:.6g} acc={within:.4f}")
