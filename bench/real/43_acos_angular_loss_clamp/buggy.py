"""Angular loss acos(clamp(cos, -1, 1)): the cosine reaches exactly 1 and acos' gradient is infinite.

Source: https://github.com/pytorch/pytorch/issues/8069 (About Nan error using acos() function)
Report: "I created a network using torch.acos() and encountered a Nan error during its training ...
an input value to torch.acos() approaches 1 or -1, causing the grad to diverge ... I limited the
input value's range from -1 to 1 using clamp(min=-1, max=1). However this error has occurred.
Finally I solved this by limiting input from -1 + eps to 1 - eps". Reproduced with a
surface-normal regressor (non-negative ReLU output, normalised) trained with the angle to the
target normal as loss; for flat patches the prediction becomes exactly (0, 0, 1): cos = 1.

expect: unstable-op
symptom: nonfinite
batch: 2
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
    cos = torch.clamp(cos, -1.0, 1.0)
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
