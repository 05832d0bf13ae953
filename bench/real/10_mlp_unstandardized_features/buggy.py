"""A plain MLP on raw tabular features of very different scales: NaN loss.

Source: https://github.com/keras-team/keras/issues/510
Report: an MLP gets a NaN loss (here: a loss stuck at ln 2) unless clipnorm is set; the same data worked elsewhere.
fchollet: "pre-process your data by making sure each dimension has 0 mean and unit variance ...
a simple MLP will never cause gradient explosion if your data is correctly preprocessed."

expect: data-unnormalized
symptom: acc-below 0.7
"""
import argparse

import numpy as np
import torch
import torch.nn as nn

ap = argparse.ArgumentParser()
ap.add_argument("--seed", type=int, default=0)
args = ap.parse_args()
rng = np.random.default_rng(args.seed)
torch.manual_seed(args.seed)

# raw features: counts, prices, areas ... on scales from 1 to 1e4
scales = np.array([1, 5, 20, 100, 300, 1000, 2500, 8000, 10000, 3])
X = rng.lognormal(0, 0.5, (5000, 10)) * scales
y = (np.log(X[:, 7]) - np.log(X[:, 2]) + 0.3 * rng.standard_normal(5000) > np.log(400)).astype("int64")

X_t, y_t = torch.tensor(X, dtype=torch.float32), torch.tensor(y)

model = nn.Sequential(nn.Linear(10, 64), nn.Tanh(), nn.Linear(64, 64), nn.ReLU(), nn.Linear(64, 2))
opt = torch.optim.SGD(model.parameters(), lr=0.01, momentum=0.9)
crit = nn.CrossEntropyLoss()

losses = []
for epoch in range(3):
    order = torch.randperm(5000)
    for b in range(0, 5000, 100):
        idx = order[b:b + 100]
        loss = crit(model(X_t[idx]), y_t[idx])
        opt.zero_grad()
        loss.backward()
        opt.step()
        losses.append(loss.item())

with torch.no_grad():
    acc = (model(X_t).argmax(1) == y_t).float().mean().item()
print(f"final_loss={np.mean(losses[-10:]):.6g} acc={acc:.4f}")
