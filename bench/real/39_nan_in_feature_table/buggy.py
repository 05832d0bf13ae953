"""Materials-property regression from a feature table with some NaN entries: NaN loss.

Source: https://github.com/sparks-baird/CrabNet/pull/35 ("ValueError if NaNs in training data and fixup nan_to_num usage")
Report: NaNs in the training data silently propagated through training; the PR raises an error
on NaN input and fixes the nan_to_num handling. Reproduced with a featurised table in which a
few descriptors are missing (NaN); fix: replace them (nan_to_num to the column mean).

expect: data-nonfinite
symptom: nonfinite
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

n, d = 2000, 16
feats = rng.standard_normal((n, d))
prop = feats[:, :4] @ np.array([1.0, -2.0, 0.5, 1.5]) + 0.1 * rng.standard_normal(n)
missing = rng.random((n, d)) < 0.002  # a few descriptors could not be computed
feats[missing] = np.nan

X = torch.tensor(feats, dtype=torch.float32)
Y = torch.tensor(prop, dtype=torch.float32)[:, None]
model = nn.Sequential(nn.Linear(d, 64), nn.ReLU(), nn.Linear(64, 64), nn.ReLU(), nn.Linear(64, 1))
opt = torch.optim.AdamW(model.parameters(), lr=1e-3)
losses = []
for epoch in range(3):
    perm = torch.randperm(n)
    for i in range(0, n, 64):
        idx = perm[i:i + 64]
        loss = nn.functional.mse_loss(model(X[idx]), Y[idx])
        opt.zero_grad()
        loss.backward()
        opt.step()
        losses.append(loss.item())
print(f"final_loss={np.mean(losses[-10:]):.6g} acc={0.0:.4f}")
