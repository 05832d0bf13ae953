"""Fault: dead-relu. A hand-rolled init sets every hidden bias to -3 ("a sparse
representation is more efficient") in a ReLU MLP on standardized inputs. Pre-activations
are ~N(-3, 0.6): almost no unit ever fires, the ReLUs pass no gradient, and the network
cannot learn; the loss sits at the starting value.

Mechanism: most ReLU units never activate (negative bias init).
"""
import argparse

import torch
from torch import nn

ap = argparse.ArgumentParser()
ap.add_argument("--seed", type=int, default=0)
ap.add_argument("--steps", type=int, default=250)
args = ap.parse_args()
torch.manual_seed(args.seed)

model = nn.Sequential(nn.Linear(24, 128), nn.ReLU(), nn.Linear(128, 128), nn.ReLU(), nn.Linear(128, 4))
with torch.no_grad():
    for m in model:
        if isinstance(m, nn.Linear) and m.out_features == 128:
            m.bias.fill_(-3.0)
X = torch.randn(8000, 24)
y = torch.bucketize(X[:, :3].sum(1), torch.tensor([-1.0, 0.0, 1.0]))
opt = torch.optim.Adam(model.parameters(), lr=1e-3)
for step in range(args.steps):
    i = torch.randint(0, 8000, (128,))
    loss = nn.functional.cross_entropy(model(X[i]), y[i])
    opt.zero_grad()
    loss.backward()
    opt.step()
