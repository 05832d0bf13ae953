"""Panorama room-layout boundary regressor -- fixed as in the maintainer's commit: the per-column
ground truth is produced by periodic linear interpolation between the corners (wrapping around the
seam), so every column gets a real boundary value and none is left at the 1e9 placeholder
(nothing else changed).
"""
import argparse

import torch
import torch.nn as nn

ap = argparse.ArgumentParser()
ap.add_argument("--seed", type=int, default=0)
args = ap.parse_args()
torch.manual_seed(args.seed)
torch.set_num_threads(1)

ROWS, W = 16, 64


def random_room():
    k = int(torch.randint(4, 7, ()))
    xs = torch.sort(torch.randperm(W - 4)[:k - 1] + 4).values.float()
    first = torch.tensor([0.0]) if torch.rand(()) > 0.15 else torch.randint(2, 6, (1,)).float()
    xs = torch.cat([first, xs[xs > first + 1]])
    ys = 3.0 + 4.0 * torch.rand(len(xs))
    return xs, ys


def true_boundary(xs, ys):
    px = torch.cat([xs[-1:] - W, xs, xs[:1] + W])
    py = torch.cat([ys[-1:], ys, ys[:1]])
    cols = torch.arange(W).float()
    j = torch.searchsorted(px, cols, right=True).clamp(1, len(px) - 1)
    t = (cols - px[j - 1]) / (px[j] - px[j - 1])
    return py[j - 1] + t * (py[j] - py[j - 1])


def boundary_target(xs, ys):
    return true_boundary(xs, ys)


def render(bon):
    rows = torch.arange(ROWS).float()[:, None]
    return torch.sigmoid(4 * (bon[None, :] - rows)) + 0.1 * torch.randn(ROWS, W)


def make_set(n, exact):
    imgs, targets = [], []
    for _ in range(n):
        xs, ys = random_room()
        truth = true_boundary(xs, ys)
        imgs.append(render(truth))
        targets.append(truth if exact else boundary_target(xs, ys))
    return torch.stack(imgs), torch.stack(targets)


train_x, train_y = make_set(2000, exact=False)
val_x, val_y = make_set(400, exact=True)
model = nn.Sequential(nn.Conv1d(ROWS, 32, 3, padding=1, padding_mode="circular"), nn.ReLU(),
                      nn.Conv1d(32, 32, 3, padding=1, padding_mode="circular"), nn.ReLU(), nn.Conv1d(32, 1, 1))
opt = torch.optim.Adam(model.parameters(), lr=3e-3)

for epoch in range(10):
    perm, total = torch.randperm(len(train_x)), 0.0
    for i in range(0, len(perm), 50):
        idx = perm[i:i + 50]
        loss = (model(train_x[idx]).squeeze(1) - train_y[idx]).abs().mean()
        opt.zero_grad()
        loss.backward()
        opt.step()
        total += loss.item() * len(idx)
    train_loss = total / len(perm)
    print(f"epoch {epoch} bon L1 {train_loss:.4f}")

with torch.no_grad():
    acc = ((model(val_x).squeeze(1) - val_y).abs() < 0.5).float().mean().item()
print(f"final_loss={train_loss:.6g} acc={acc:.4f}")
