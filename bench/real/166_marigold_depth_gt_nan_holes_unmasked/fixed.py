"""Monocular depth regressor -- fixed by keeping invalid ground truth out of the loss: the MSE is
taken only over pixels whose depth is finite (a valid mask), as the maintainer's diagnosis implies
(nothing else changed).
"""
import argparse

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset

ap = argparse.ArgumentParser()
ap.add_argument("--seed", type=int, default=0)
args = ap.parse_args()
torch.manual_seed(args.seed)
torch.set_num_threads(1)

S = 32
v, u = torch.meshgrid(torch.linspace(0, 1, S), torch.linspace(-1, 1, S), indexing="ij")


def render(n):
    horizon = 0.3 + 0.2 * torch.rand(n, 1, 1)
    floor = torch.where(v > horizon, 1.5 / (v - horizon + 0.05), torch.full_like(v, 30.0))
    depth = floor.clamp(max=30.0).expand(n, S, S).clone()
    albedo = (0.4 + 0.3 * torch.rand(n, 3, 1, 1)).expand(n, 3, S, S).clone()
    for _ in range(2):
        cx, w = torch.rand(n, 1, 1) * 1.6 - 0.8, 0.15 + 0.25 * torch.rand(n, 1, 1)
        top, d = 0.1 + 0.4 * torch.rand(n, 1, 1), 2 + 8 * torch.rand(n, 1, 1)
        inside = ((u - cx).abs() < w) & (v > top) & (v < horizon + 0.5 / d + 0.1) & (d < depth)
        depth = torch.where(inside, d.expand_as(depth), depth)
        color = torch.rand(n, 3, 1, 1)
        albedo = torch.where(inside.unsqueeze(1), color.expand_as(albedo), albedo)
    shade = 1.2 / (1 + 0.08 * depth)
    rgb = (albedo * shade.unsqueeze(1) + 0.03 * torch.randn(n, 3, S, S)).clamp(0, 1)
    gt = depth.clone()
    dropout = (torch.rand(n, 1, 1) < 0.3) & ((depth > 20) | (shade < 0.45) | (torch.rand(n, S, S) < 0.02))
    gt[dropout] = float("nan")                       # no sensor return
    return rgb, gt.unsqueeze(1)


class DepthNet(nn.Module):
    def __init__(self, c=16):
        super().__init__()
        def block(i, o):
            return nn.Sequential(nn.Conv2d(i, o, 3, padding=1), nn.BatchNorm2d(o), nn.ReLU())
        self.e1, self.e2, self.e3 = block(3, c), block(c, 2 * c), block(2 * c, 2 * c)
        self.d2, self.d1 = block(4 * c, c), block(2 * c, c)
        self.out = nn.Conv2d(c, 1, 1)

    def forward(self, x):
        a = self.e1(x)
        b = self.e2(F.max_pool2d(a, 2))
        m = self.e3(F.max_pool2d(b, 2))
        b = self.d2(torch.cat([F.interpolate(m, scale_factor=2), b], 1))
        a = self.d1(torch.cat([F.interpolate(b, scale_factor=2), a], 1))
        return self.out(a)


def depth_loss(pred_log, gt):
    valid = torch.isfinite(gt)
    return F.mse_loss(pred_log[valid], torch.log(gt[valid]))


train_x, train_d = render(1000)
test_x, test_d = render(300)
loader = DataLoader(TensorDataset(train_x, train_d), batch_size=16, shuffle=True)
model = DepthNet()
optimizer = torch.optim.AdamW(model.parameters(), lr=2e-3)

for epoch in range(5):
    model.train()
    total, count = 0.0, 0
    for x, d in loader:
        loss = depth_loss(model(x), d)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        total += loss.item()
        count += 1
    print(f"epoch {epoch} loss {total / count:.4f}")

model.eval()
with torch.no_grad():
    pred = torch.exp(model(test_x))
    valid = torch.isfinite(test_d)
    acc = ((pred[valid] - test_d[valid]).abs() / test_d[valid] < 0.25).float().mean().item()
print(f"final_loss={total / count:.6g} acc={acc:.4f}")
