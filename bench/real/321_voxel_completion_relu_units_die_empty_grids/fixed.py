"""3-D shape completion from a single depth view: a fully connected encoder-decoder with ReLU hidden layers predicts the complete 8x8x8 occupancy grid from its visible front half.

Fixed: Adam's learning rate is lowered from 0.1 to 2e-3, so the early updates no longer push the
ReLU units below zero for every input and the hidden layers stay alive.
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

G = 8


def objects(n):
    grid = torch.zeros(n, G, G, G)
    for i in range(n):
        for _ in range(int(torch.randint(1, 4, (1,)))):
            lo = torch.randint(0, G - 2, (3,))
            hi = lo + torch.randint(2, 5, (3,))
            grid[i, lo[0]:hi[0], lo[1]:hi[1], lo[2]:hi[2]] = 1.0
    grid = torch.maximum(grid, grid.flip(1))
    seen = grid.clone()
    seen[:, G // 2:] = 0.0
    return seen.flatten(1), grid.flatten(1)


X_train, Y_train = objects(3000)
X_test, Y_test = objects(600)

model = nn.Sequential(nn.Linear(G ** 3, 256), nn.ReLU(), nn.Linear(256, 256), nn.ReLU(), nn.Linear(256, G ** 3))
opt = torch.optim.Adam(model.parameters(), lr=2e-3)
loader = DataLoader(TensorDataset(X_train, Y_train), batch_size=64, shuffle=True)


def iou(logits, target):
    pred = (logits > 0).float()
    inter = (pred * target).sum(1)
    union = ((pred + target) > 0).float().sum(1).clamp(min=1)
    return (inter / union).mean().item()


for epoch in range(6):
    for xb, yb in loader:
        loss = F.binary_cross_entropy_with_logits(model(xb), yb)
        opt.zero_grad()
        loss.backward()
        opt.step()
    with torch.no_grad():
        logits = model(X_test)
        test_loss = F.binary_cross_entropy_with_logits(logits, Y_test).item()
        test_iou = iou(logits, Y_test)
    print(f"epoch {epoch} train {loss.item():.4f} test {test_loss:.4f} iou {test_iou:.3f}")

print(f"final_loss={test_loss:.6g} acc={test_iou:.4f}")
