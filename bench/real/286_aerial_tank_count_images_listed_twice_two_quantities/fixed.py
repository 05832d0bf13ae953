"""Aerial tank-count classifier -- fixed by keeping one quantity row per tile (the second
annotation rows are dropped instead of appended), so no tile carries two targets (nothing else
changed).
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

S = 14
yy, xx = torch.meshgrid(torch.arange(S).float(), torch.arange(S).float(), indexing="ij")


def tiles(n):
    count = torch.randint(1, 5, (n,))
    img = 0.3 * torch.randn(n, 1, S, S)
    for i in range(n):
        for _ in range(int(count[i])):
            cy, cx = torch.randint(2, S - 2, (2,)).float()
            img[i, 0] += ((yy - cy) ** 2 + (xx - cx) ** 2 < 2.5).float()
    return img, count - 1


def attribute_table(img, label):
    second = torch.rand(len(label)) < 0.4
    other = torch.where(label == 0, label + 1, label - 1)[second]
    return torch.cat([img, img[second]]), torch.cat([label, other])


x_tiles, y_tiles = tiles(1600)
x_tr, y_tr = x_tiles, y_tiles
x_te, y_te = tiles(600)

model = nn.Sequential(nn.Conv2d(1, 8, 3, padding=1), nn.ReLU(), nn.Conv2d(8, 16, 3, padding=1),
                      nn.ReLU(), nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Linear(16, 32), nn.ReLU(),
                      nn.Linear(32, 4))
opt = torch.optim.Adam(model.parameters(), lr=1e-2)
for step in range(200):
    loss = F.cross_entropy(model(x_tr), y_tr)
    opt.zero_grad()
    loss.backward()
    opt.step()
    if step % 40 == 39:
        with torch.no_grad():
            test_logits = model(x_te)
            test_loss = F.cross_entropy(test_logits, y_te).item()
        print(f"step {step + 1} train {loss.item():.4f} test {test_loss:.4f}")

acc = (test_logits.argmax(1) == y_te).float().mean().item()
print(f"final_loss={test_loss:.6g} acc={acc:.4f}")
