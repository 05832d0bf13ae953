"""IVUS lumen segmentation -- fixed as the author explains: the per-pixel BCE is averaged over pixels and
frames (reduction="mean") instead of summed, so the gradient no longer scales with the pixel count;
nothing else changed.
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

S = 48
yy, xx = torch.meshgrid(torch.arange(S).float(), torch.arange(S).float(), indexing="ij")


def frames(n):
    cx, cy = 24 + 4 * torch.randn(n, 1, 1), 24 + 4 * torch.randn(n, 1, 1)
    r_lumen = 7 + 5 * torch.rand(n, 1, 1)
    r_wall = r_lumen + 4 + 4 * torch.rand(n, 1, 1)
    d = ((xx - cx) ** 2 + (yy - cy) ** 2).sqrt()
    lumen = (d < r_lumen).float()
    wall = ((d >= r_lumen) & (d < r_wall)).float()
    catheter = (((xx - 24) ** 2 + (yy - 24) ** 2).sqrt() < 3).float()
    img = 0.15 + 0.65 * wall + 0.25 * (1 - lumen - wall) + 0.5 * catheter
    img = img * (0.6 + 0.8 * torch.rand(n, S, S))
    return img.unsqueeze(1), lumen.unsqueeze(1)


X, Y = frames(960)
loader = DataLoader(TensorDataset(X[:800], Y[:800]), batch_size=16, shuffle=True)
model = nn.Sequential(nn.Conv2d(1, 16, 3, padding=1), nn.ReLU(),
                      nn.Conv2d(16, 16, 3, padding=2, dilation=2), nn.ReLU(),
                      nn.Conv2d(16, 16, 3, padding=4, dilation=4), nn.ReLU(),
                      nn.Conv2d(16, 1, 1))
criterion = nn.BCEWithLogitsLoss(reduction="mean")
opt = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)

for epoch in range(5):
    total, pixels = 0.0, 0
    for xb, yb in loader:
        loss = criterion(model(xb), yb)
        opt.zero_grad()
        loss.backward()
        opt.step()
        total += loss.item() * (yb.numel() if criterion.reduction == "mean" else 1)
        pixels += yb.numel()
    print(f"epoch {epoch} loss/pixel {total / pixels:.4f}")

with torch.no_grad():
    acc = ((model(X[800:]) > 0).float() == Y[800:]).float().mean().item()
print(f"final_loss={total / pixels:.6g} acc={acc:.4f}")
