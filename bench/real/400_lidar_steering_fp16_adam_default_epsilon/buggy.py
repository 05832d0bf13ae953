"""Steering-angle regressor for a small autonomous racecar: 32 lidar ranges -> MLP (64 -> 64 ReLU units) -> steering angle, MSE loss, Adam lr 1e-3, DataLoader batches of 128, 5 epochs, with the whole model, its inputs and its optimizer state kept in float16 (the "set floatx to float16" setup of the report). Adam divides by sqrt(v) + eps with the usual eps = 1e-8, which is below the smallest float16 number and becomes 0; squared gradients below about 2e-4 underflow to 0 as well, so for every weight whose gradient is tiny or exactly zero (inactive ReLU units) the update is 0/0 or x/0: NaN and Inf enter the weights on the first steps and the loss is NaN from then on.

Source: https://github.com/keras-team/keras/issues/11860 (adam optimizer does not work with FP16)
Report: "I noticed some weird behaviour when training a sequential model using FP16, `mse` as loss
function and `adam` as optimizer; the loss can't be calculated and I get an output similar to: Epoch 1/10
... loss: nan. There is no issue when using FP32, or changing the optimizer with FP16 (I tried both
adamax and sgd)." (the model in the report is a racecar controller). Reproduced with 20,000 synthetic
lidar scans of a corridor (walls at random offsets and angles, range noise) whose steering target is a
smooth function of the wall geometry. The printed loss is the MSE on 4,000 held-out scans, `acc` the
fraction of them whose predicted angle is within 0.1 rad of the target.

expect: fp16-underflow
symptom: nonfinite
batch: 24
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
opt = torch.optim.Adam(model.parameters(), lr=1e-3, eps=1e-8)
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
