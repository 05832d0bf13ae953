"""Flow-meter calibration with a single linear unit (per-reading Nesterov SGD, lr 0.01) -- fixed by
standardising the pulse counts with the training set's mean and standard deviation before they enter the
model, as is already done for the target, so the fixed learning rate is a stable step again (nothing else
changed).
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

x_center, x_scale = pulses[tr].mean(), pulses[tr].std()
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
