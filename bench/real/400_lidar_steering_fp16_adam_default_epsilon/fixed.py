"""Float16 lidar steering regressor -- fixed by giving Adam an epsilon that float16 can represent
(1e-4, the value recommended for float16 Keras training, instead of 1e-8), so the denominator of the
update never underflows to zero; the model still trains entirely in float16, nothing else changed.
"""
import argparse
import math

import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset

ap = argparse.ArgumentParser()
ap.add_argument("--seed", type=int, default=0)
args = ap.parse_args()
torch.manual_seed(args.seed)
torch.set_num_threads(1)

DTYPE = torch.float16
beams = torch.linspace(-math.pi / 2, math.pi / 2, 32)


def scans(n):
    offset = torch.rand(n, 1) * 1.2 - 0.6
    heading = torch.rand(n, 1) * 0.8 - 0.4
    left = (1.0 - offset) / torch.sin(beams + heading).clamp(min=0.05)
    right = (1.0 + offset) / torch.sin(-(beams + heading)).clamp(min=0.05)
    ranges = torch.where(beams + heading > 0, left, right).clamp(max=6.0)
    ranges = ranges + 0.05 * torch.randn_like(ranges)
    steer = torch.tanh(1.5 * offset - 2.0 * heading)
    return ranges / 3.0 - 1.0, steer


X_train, y_train = scans(20000)
X_test, y_test = scans(4000)
model = nn.Sequential(nn.Linear(32, 64), nn.ReLU(), nn.Linear(64, 64), nn.ReLU(), nn.Linear(64, 1)).to(DTYPE)
opt = torch.optim.Adam(model.parameters(), lr=1e-3, eps=1e-4)
loader = DataLoader(TensorDataset(X_train.to(DTYPE), y_train.to(DTYPE)), batch_size=128, shuffle=True)
loss_fn = nn.MSELoss()

for epoch in range(5):
    total = 0.0
    for xb, yb in loader:
        loss = loss_fn(model(xb), yb)
        opt.zero_grad()
        loss.backward()
        opt.step()
        total += loss.item() * len(xb)
    print(f"epoch {epoch} train_mse {total / len(X_train):.5f}")

with torch.no_grad():
    pred = model(X_test.to(DTYPE)).float()
    test_loss = loss_fn(pred, y_test).item()
    acc = ((pred - y_test).abs() < 0.1).float().mean().item()
print(f"final_loss={test_loss:.6g} acc={acc:.4f}")
