"""Microscopy cell-mask segmenter in half precision -- fixed by giving Adam an epsilon that float16 can
represent (eps=1e-4 instead of the default 1e-8, which rounds to zero in float16), so the update's
denominator never becomes zero (nothing else changed).
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

SIZE = 24
yy, xx = torch.meshgrid(torch.arange(SIZE).float(), torch.arange(SIZE).float(), indexing="ij")


def cell_images(n):
    imgs = torch.zeros(n, 1, SIZE, SIZE)
    masks = torch.zeros(n, SIZE, SIZE, dtype=torch.long)
    for i in range(n):
        for _ in range(int(torch.randint(1, 4, ()))):
            cy, cx = torch.randint(5, SIZE - 5, (2,)).float()
            r = 2.0 + 2.5 * torch.rand(())
            d = ((yy - cy) ** 2 + (xx - cx) ** 2).sqrt()
            ring = (d > r) & (d <= r + 1.5)
            core = d <= r
            masks[i][ring] = 2
            masks[i][core] = 1
            imgs[i, 0][ring] += 0.5
            imgs[i, 0][core] += 1.0
    imgs = imgs + 0.25 * torch.randn_like(imgs)
    return imgs, masks


X_train, M_train = cell_images(1200)
X_test, M_test = cell_images(300)

model = nn.Sequential(
    nn.Conv2d(1, 16, 3, padding=1), nn.ReLU(),
    nn.Conv2d(16, 16, 3, padding=1), nn.ReLU(),
    nn.Conv2d(16, 16, 3, padding=1), nn.ReLU(),
    nn.Conv2d(16, 3, 1),
).half()
opt = torch.optim.Adam(model.parameters(), lr=1e-3, eps=1e-4)

for epoch in range(4):
    perm = torch.randperm(len(X_train))
    for s in range(0, len(perm), 32):
        idx = perm[s:s + 32]
        logits = model(X_train[idx].half())
        loss = F.cross_entropy(logits, M_train[idx])
        opt.zero_grad()
        loss.backward()
        opt.step()
    with torch.no_grad():
        out = model(X_test.half())
        val = F.cross_entropy(out.float(), M_test).item()
        acc = (out.argmax(1) == M_test).float().mean().item()
    print(f"epoch {epoch} train {loss.item():.4f} val {val:.4f} pixel_acc {acc:.4f}")

print(f"final_loss={val:.6g} acc={acc:.4f}")
