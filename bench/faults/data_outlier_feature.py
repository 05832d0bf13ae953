"""Fault: data-outlier. A house-price regression on standardized features, except that
three rows carry a unit/typing error in the living-area column (1e4 x the usual value,
square centimetres instead of square metres). The batch that holds one of them makes a
huge loss and gradient spike that throws the weights far off; training does not recover.

Mechanism: extreme feature values in a handful of rows, plain SGD with momentum.
"""
import argparse

import torch
from torch import nn

ap = argparse.ArgumentParser()
ap.add_argument("--seed", type=int, default=3)
ap.add_argument("--steps", type=int, default=300)
args = ap.parse_args()

g = torch.Generator().manual_seed(args.seed)
torch.manual_seed(args.seed)
N, D = 5000, 8
X = torch.randn(N, D, generator=g)
y = X @ torch.linspace(-1, 1, D) + 0.3 * torch.sin(3 * X[:, 0]) + 0.05 * torch.randn(N, generator=g)
glitch = torch.randperm(N, generator=g)[:3]
X[glitch, 0] = X[glitch, 0].abs() * 1e4 + 1e4   # cm^2 instead of m^2

model = nn.Sequential(nn.Linear(D, 64), nn.ReLU(), nn.Linear(64, 1))
opt = torch.optim.SGD(model.parameters(), lr=0.02, momentum=0.9)
perm = torch.randperm(N, generator=g)
bs = 32
for step in range(args.steps):
    j = perm[(step * bs) % N:(step * bs) % N + bs]
    loss = ((model(X[j]).squeeze(1) - y[j]) ** 2).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
    if step % 20 == 0 or bool(torch.isin(j, glitch).any()):
        print(f"{step:4d} {loss.item():.4g}" + ("  <- outlier row in batch" if torch.isin(j, glitch).any() else ""))
print("final", loss.item())
