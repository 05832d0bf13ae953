"""Fixed version of 32_zero_initialized_weights/buggy.py (the source and the report are in its docstring).

Fix: He initialisation (random normal scaled by sqrt(2 / fan_in)).
"""
import argparse

import numpy as np
import torch

ap = argparse.ArgumentParser()
ap.add_argument("--seed", type=int, default=0)
args = ap.parse_args()
rng = np.random.default_rng(args.seed)
torch.manual_seed(args.seed)

# two interleaved circles (the assignment's "blue/red dots")
n = 600
t = rng.uniform(0, 2 * np.pi, n)
lab = rng.integers(0, 2, n)
rad = np.where(lab == 1, 1.0, 2.0) + 0.15 * rng.standard_normal(n)
X = torch.tensor(np.stack([rad * np.cos(t), rad * np.sin(t)], 1), dtype=torch.float32)
Y = torch.tensor(lab, dtype=torch.float32)


def initialize_parameters_zeros(layers_dims):
    parameters = {}
    for l in range(1, len(layers_dims)):
        parameters["W" + str(l)] = torch.randn(layers_dims[l], layers_dims[l - 1]) * (2 / layers_dims[l - 1]) ** 0.5
        parameters["b" + str(l)] = torch.zeros(layers_dims[l])
    return parameters


def forward(params, x):
    a1 = torch.relu(x @ params["W1"].T + params["b1"])
    a2 = torch.relu(a1 @ params["W2"].T + params["b2"])
    return torch.sigmoid(a2 @ params["W3"].T + params["b3"]).squeeze(1)


parameters = initialize_parameters_zeros([2, 10, 5, 1])
for p in parameters.values():
    p.requires_grad_(True)
opt = torch.optim.SGD(parameters.values(), lr=0.05)
costs = []
for i in range(300):
    a3 = forward(parameters, X)
    cost = -(Y * torch.log(a3) + (1 - Y) * torch.log(1 - a3)).mean()
    opt.zero_grad()
    cost.backward()
    opt.step()
    costs.append(cost.item())
with torch.no_grad():
    acc = ((forward(parameters, X) > 0.5).float() == Y).float().mean().item()
print(f"final_loss={sum(costs[-10:]) / 10:.6g} acc={acc:.4f}")
