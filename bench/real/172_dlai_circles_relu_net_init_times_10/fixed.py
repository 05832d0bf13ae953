"""Two-circles ReLU network -- fixed as the assignment does: He initialisation, randn * sqrt(2 / n_prev),
instead of randn * 10 (nothing else changed).
"""
import argparse
import math

import torch
import torch.nn as nn

ap = argparse.ArgumentParser()
ap.add_argument("--seed", type=int, default=0)
args = ap.parse_args()
torch.manual_seed(args.seed)
torch.set_num_threads(1)


def make_circles(n, noise=0.05, factor=0.8):
    n_out = n // 2
    t = torch.rand(n) * 2 * math.pi
    r = torch.where(torch.arange(n) < n_out, torch.tensor(1.0), torch.tensor(factor))
    X = torch.stack([r * torch.cos(t), r * torch.sin(t)], 1) + noise * torch.randn(n, 2)
    y = (torch.arange(n) >= n_out).float().unsqueeze(1)
    perm = torch.randperm(n)
    return X[perm], y[perm]


train_X, train_Y = make_circles(300)
test_X, test_Y = make_circles(300)


def initialize_parameters_he(layers_dims):
    params = []
    for l in range(1, len(layers_dims)):
        W = torch.randn(layers_dims[l - 1], layers_dims[l]) * math.sqrt(2.0 / layers_dims[l - 1])
        b = torch.zeros(layers_dims[l])
        params += [W.requires_grad_(), b.requires_grad_()]
    return params


def forward_propagation(X, params):
    W1, b1, W2, b2, W3, b3 = params
    a1 = torch.relu(X @ W1 + b1)
    a2 = torch.relu(a1 @ W2 + b2)
    return torch.sigmoid(a2 @ W3 + b3)


layers_dims = [2, 10, 5, 1]
params = initialize_parameters_he(layers_dims)
criterion = nn.BCELoss()
optimizer = torch.optim.SGD(params, lr=0.01)

for i in range(15000):
    a3 = forward_propagation(train_X, params)
    cost = criterion(a3, train_Y)
    optimizer.zero_grad()
    cost.backward()
    optimizer.step()
    if i % 1000 == 0:
        print(f"Cost after iteration {i}: {cost.item():.4f}")

with torch.no_grad():
    pred = (forward_propagation(test_X, params) > 0.5).float()
    acc = (pred == test_Y).float().mean().item()
print(f"final_loss={cost.item():.6g} acc={acc:.4f}")
