"""AutoTrainer's vanishing-gradient subject: a deep sigmoid MLP on the circles data stays at chance.

Source: https://github.com/shiningrain/AUTOTRAINER (AutoTrainer/demo_case/Gradient_Vanish_Case;
  AutoTrainer, ICSE'21)
Report: AutoTrainer's demo subject for the "gradient vanish" problem: a deep dense network with
sigmoid activations on sklearn's make_circles; the gradients of the first layers vanish and the
accuracy stays ~50 %. AutoTrainer's repair replaces the activations with ReLU.

expect: vanishing-gradient
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

# make_circles(n_samples=1000, noise=0.1, factor=0.5)
n = 1000
t = rng.uniform(0, 2 * np.pi, n)
y = rng.integers(0, 2, n)
r = np.where(y == 1, 0.5, 1.0)
X = np.stack([r * np.cos(t), r * np.sin(t)], 1) + 0.1 * rng.standard_normal((n, 2))
X, y = torch.tensor(X, dtype=torch.float32), torch.tensor(y, dtype=torch.float32)

act = nn.Sigmoid
layers = [nn.Linear(2, 32), act()]
for _ in range(5):
    layers += [nn.Linear(32, 32), act()]
layers += [nn.Linear(32, 1), nn.Sigmoid()]
model = nn.Sequential(*layers)
opt = torch.optim.SGD(model.parameters(), lr=0.2)
bce = nn.BCELoss()
hist = []
for epoch in range(25):
    for i in range(0, n, 32):
        loss = bce(model(X[i:i + 32]).squeeze(1), y[i:i + 32])
        opt.zero_grad()
        loss.backward()
        opt.step()
        hist.append(loss.item())
with torch.no_grad():
    acc = ((model(X).squeeze(1) > 0.5).float() == y).float().mean().item()
print(f"final_loss={np.mean(hist[-20:]):.6g} acc={acc:.4f}")
