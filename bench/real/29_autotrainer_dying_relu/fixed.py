"""Fixed version of 29_autotrainer_dying_relu/buggy.py (the source and the report are in its docstring).

Fix: LeakyReLU activations.
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

n = 1200
X = rng.standard_normal((n, 10)).astype("float32")
y = (X[:, 0] + X[:, 1] - X[:, 2] > 0).astype("int64")
X, y = torch.tensor(X), torch.tensor(y)

act = lambda: nn.LeakyReLU(0.2)
model = nn.Sequential(nn.Linear(10, 64), act(), nn.Linear(64, 64), act(), nn.Linear(64, 64), act(), nn.Linear(64, 2))
with torch.no_grad():
    for m in model:
        if isinstance(m, nn.Linear):
            m.bias.fill_(-1.0)  # "bias_initializer=constant(-1.0)" in the subject's config
opt = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)
loss_fn = nn.CrossEntropyLoss()
hist = []
for epoch in range(8):
    for i in range(0, n, 40):
        loss = loss_fn(model(X[i:i + 40]), y[i:i + 40])
        opt.zero_grad()
        loss.backward()
        opt.step()
        hist.append(loss.item())
with torch.no_grad():
    acc = (model(X).argmax(1) == y).float().mean().item()
print(f"final_loss={np.mean(hist[-20:]):.6g} acc={acc:.4f}")
