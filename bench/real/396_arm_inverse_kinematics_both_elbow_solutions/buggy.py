"""Inverse-kinematics regressor for a two-link planar arm: an MLP (2 -> 64 -> 64 -> 2, tanh) maps a target hand position (x, y) to the two joint angles, trained with MSE, Adam lr 3e-3 and DataLoader batches of 64 for 20 epochs. The training pairs are logged from the arm in both elbow configurations, so almost every hand position appears with two completely different "right answers" (elbow-up and elbow-down angles). Identical inputs with conflicting targets: the squared error is minimized by the average of the two solutions, which is not a solution at all, the loss stalls far above zero and the predicted angles put the hand in the wrong place.

Source: https://stats.stackexchange.com/questions/96225/neural-network-what-if-there-are-multiple-right-answers-for-a-given-set-of-inpu (Neural Network: What if there are multiple right answers for a given set of inputs?)
Report: "For a given input into the input nodes, there are multiple correct values for the output nodes.
In the training set, there are times when the inputs result in a certain output, and other times when
the inputs result in a completely different (but equally valid) output. Will a neural network still be
able to 'figure out' a pattern?" -- answer: "It will make the function predict the mean of both."
Reproduced with 4,000 synthetic arm poses (link lengths 1.0 and 0.8), half of them logged in the mirrored
elbow configuration. The printed loss is the MSE of the angles on 1,000 held-out poses drawn the same
way, `acc` the fraction whose predicted angles put the hand within 0.1 of the target position.

expect: label-conflict
symptom: final-loss-ratio 3
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

L1, L2 = 1.0, 0.8
MIRRORED_SHARE = 0.5


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
