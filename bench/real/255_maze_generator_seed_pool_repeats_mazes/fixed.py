"""Maze property regressor -- fixed by preventing duplicate mazes at generation time, as the issue asks:
the per-maze seeds are drawn without replacement from a large range, so the 4,000 training mazes are
4,000 distinct layouts. Nothing else changed.
"""
import argparse

import torch
import torch.nn as nn
import torch.nn.functional as F

ap = argparse.ArgumentParser()
ap.add_argument("--seed", type=int, default=0)
args = ap.parse_args()
torch.manual_seed(args.seed)
torch.set_num_threads(1)

N = 7
KERNEL = torch.tensor([[0.0, 1.0, 0.0], [1.0, 0.0, 1.0], [0.0, 1.0, 0.0]]).view(1, 1, 3, 3)


def make_maze(maze_seed):
    g = torch.Generator().manual_seed(maze_seed)
    grid = (torch.rand(N, N, generator=g) < 0.65).float()
    grid[0, 0] = grid[-1, -1] = 1.0
    return grid


def dead_ends(grids):
    neighbours = F.conv2d(grids.unsqueeze(1), KERNEL, padding=1).squeeze(1)
    return ((neighbours == 1) & (grids == 1)).float().sum((1, 2))


def dataset(seeds):
    grids = torch.stack([make_maze(int(s)) for s in seeds])
    return grids.flatten(1), dead_ends(grids)


base = 1_000_000 * (args.seed + 1)
train_seeds = base + torch.randperm(400_000)[:4000]
val_seeds = base + 500_000 + torch.arange(1000)
x_train, y_train = dataset(train_seeds)
x_val, y_val = dataset(val_seeds)

model = nn.Sequential(nn.Linear(N * N, 128), nn.ReLU(), nn.Linear(128, 128), nn.ReLU(), nn.Linear(128, 1))
opt = torch.optim.Adam(model.parameters(), lr=1e-3)
BATCH = 100
for epoch in range(40):
    perm = torch.randperm(len(x_train))
    total = 0.0
    for i in range(0, len(x_train), BATCH):
        idx = perm[i:i + BATCH]
        loss = F.mse_loss(model(x_train[idx]).squeeze(1), y_train[idx])
        opt.zero_grad()
        loss.backward()
        opt.step()
        total += loss.item() * len(idx)
    if epoch % 5 == 0:
        with torch.no_grad():
            v = F.mse_loss(model(x_val).squeeze(1), y_val).item()
        print(f"epoch {epoch} train mse {total / len(x_train):.4f} val mse {v:.4f}")

with torch.no_grad():
    pred = model(x_val).squeeze(1)
    val_mse = F.mse_loss(pred, y_val).item()
    acc = (pred.round() == y_val).float().mean().item()
print(f"final_loss={val_mse:.6g} acc={acc:.4f}")
