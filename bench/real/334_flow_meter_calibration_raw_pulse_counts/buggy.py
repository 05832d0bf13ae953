"""Flow-meter calibration fit: a single linear unit (identity activation, MSE) learns litres = a + b x pulses from 1,000 logged readings, trained like the deeplearning4j RegressionFunction example -- one reading per step, SGD with Nesterov momentum 0.9, learning rate 0.01. The pulse counts go into the model raw, in the hundreds: the gradient on the slope scales with the input and the curvature with its square, so with inputs this large the fixed learning rate is far beyond the stable step, every update overshoots by a growing factor, and the weights blow up to Inf/NaN within the first epoch.

Source: https://github.com/deeplearning4j/deeplearning4j/issues/3346 (Increasing range of input values produces NaN weights and inability to learn)
Report: "I started off with a very simple problem: Learning a scalar linear function of a single scalar
variable: y = f(x) = 15 + 5 * x ... identity activation function, and MSE output layer loss function ...
stochastic gradient, Xavier initialization, Nesterov update, 0.9 momentum, and fixed learning rate 0.01
... mini-batch size = 1 ... x_i = s * ((double) i) ... I repeated this experiment for s = 0.001, 0.01,
0.02, 0.05, 1.0" -- small input ranges learnt the line, larger ones produced NaN weights. Reproduced
with 1,000 readings of pulses = 0.5 x i (0..500) and litres = 15 + 5 x pulses + noise, 5 epochs of
per-reading updates through a DataLoader (batch 1, shuffled). The printed loss is the validation MSE on
200 held-out readings, `acc` the fraction predicted within 2% of the true volume.

expect: data-unnormalized
symptom: nonfinite
batch: 20
"""
import argparse

import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset

ap = argparse.ArgumentParser()
ap.add_argument("--seed", type=int, default=0)
args = ap.parse_args()
torch.manual_seed(args.seed)
torch.set_num_threads(1)

pulses = 0.5 * torch.arange(1200).float()
litres = 15 + 5 * pulses + 2.0 * torch.randn(len(pulses))
perm = torch.randperm(len(pulses))
tr, va = perm[:1000], perm[1000:]

x_center, x_scale = 0.0, 1.0
X = ((pulses - x_center) / x_scale)[:, None]
y_center, y_scale = litres[tr].mean(), litres[tr].std()
Y = ((litres - y_center) / y_scale)[:, None]

model = nn.Linear(1, 1)
nn.init.xavier_normal_(model.weight)
nn.init.zeros_(model.bias)
opt = torch.optim.SGD(model.parameters(), lr=0.01, momentum=0.9, nesterov=True)
loader = DataLoader(TensorDataset(X[tr], Y[tr]), batch_size=1, shuffle=True)

for epoch in range(5):
    total = 0.0
    for xb, yb in loader:
        loss = ((model(xb) - yb) ** 2).mean()
        opt.zero_grad()
        loss.backward()
        opt.step()
        total += loss.item()
    with torch.no_grad():
        pred = model(X[va]) * y_scale + y_center
    val = ((pred - litres[va, None]) ** 2).mean().item()
    acc = ((pred.squeeze(1) - litres[va]).abs() < 0.02 * litres[va]).float().mean().item()
    print(f"epoch {epoch} train {total / len(loader):.4g} val {val:.4g} acc {acc:.3f}")

print(f"final_loss={val:.6g} acc={acc:.4f}")
