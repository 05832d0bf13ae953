"""Basket-total regressor -- fixed by giving the hidden layer a leaky ReLU (slope 0.01 for negative inputs):
units pushed negative by the first large updates still pass a gradient, recover, and the network learns the
sum instead of collapsing to a constant (nothing else changed).
"""
import argparse

import torch
import torch.nn as nn

ap = argparse.ArgumentParser()
ap.add_argument("--seed", type=int, default=0)
args = ap.parse_args()
torch.manual_seed(args.seed)
torch.set_num_threads(1)

ITEMS, HIDDEN = 5, 6


def make_baskets(n):
    x = torch.randint(1, 11, (n, ITEMS)).float()
    return x, x.sum(1, keepdim=True)


X, y = make_baskets(2000)
X_test, y_test = make_baskets(500)
model = nn.Sequential(nn.Linear(ITEMS, HIDDEN), nn.LeakyReLU(0.01), nn.Linear(HIDDEN, 1))
opt = torch.optim.SGD(model.parameters(), lr=0.004)

for epoch in range(3):
    total = 0.0
    for i in torch.randperm(len(X)).tolist():
        loss = ((model(X[i:i + 1]) - y[i:i + 1]) ** 2).mean()
        opt.zero_grad()
        loss.backward()
        opt.step()
        total += loss.item()
    print(f"epoch {epoch} train mse {total / len(X):.3f}")

with torch.no_grad():
    pred = model(X_test)
    test_mse = ((pred - y_test) ** 2).mean().item()
    acc = ((pred - y_test).abs() < 2).float().mean().item()
print(f"final_loss={test_mse:.6g} acc={acc:.4f}")
