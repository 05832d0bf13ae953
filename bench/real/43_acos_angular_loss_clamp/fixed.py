"""Fixed version of /buggy.py (the source and the report are in its docstring).

Fix: clamp the cosine to [-1 + eps, 1 - eps] before acos.
"""
import argparse

import torch
import torch.nn as nn
import torch.nn.functional as F

ap = argparse.ArgumentParser()
ap.add_argument("--seed", type=int, default=0)
args = ap.parse_args()
torch.manual_seed(args.seed)

# patches described by 12 features; their normal lies in the positive octant, 40 % are flat (0, 0, 1)
N = 2000
feats = torch.randn(N, 12)
tilt = torch.sigmoid(feats[:, :2] @ torch.randn(2, 2)) * (torch.rand(N, 1) > 0.4)
normals = F.normalize(torch.cat([tilt, torch.ones(N, 1)], 1), dim=1)


class NormalNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.body = nn.Sequential(nn.Linear(12, 64), nn.ReLU(), nn.Linear(64, 64), nn.ReLU())
        self.head = nn.Linear(64, 3)

    def forward(self, x):
        return F.normalize(F.relu(self.head(self.body(x))), dim=1)


def angular_loss(pred, target):
    cos = (pred * target).sum(dim=1)
    cos = torch.clamp(cos, -1.0 + 1e-7, 1.0 - 1e-7)
    return torch.acos(cos).mean()


net = NormalNet()
opt = torch.optim.Adam(net.parameters(), lr=3e-3)
losses = []
for epoch in range(12):
    perm = torch.randperm(N)
    for k in range(0, N, 100):
        idx = perm[k:k + 100]
        loss = angular_loss(net(feats[idx]), normals[idx])
        opt.zero_grad()
        loss.backward()
        opt.step()
        losses.append(loss.item())
with torch.no_grad():
    ang = torch.rad2deg(torch.acos(torch.clamp((net(feats) * normals).sum(1), -1, 1)))
    acc = (ang < 10).float().mean().item()
print(f"final_loss={sum(losses[-10:]) / 10:.6g} acc={acc:.4f}")
