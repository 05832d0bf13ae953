"""Building-footprint segmenter under float16 autocast -- fixed by computing the soft Dice loss in
float32 (the logits are cast with .float() before the sigmoid, so the pixel sums over the batch no
longer overflow float16's 65,504 maximum) (nothing else changed).
"""
import argparse

import torch
import torch.nn as nn

ap = argparse.ArgumentParser()
ap.add_argument("--seed", type=int, default=0)
args = ap.parse_args()
torch.manual_seed(args.seed)
torch.set_num_threads(1)

S = 96


def tiles(n):
    img = 0.3 + 0.15 * torch.randn(n, 1, S, S)
    mask = torch.zeros(n, 1, S, S)
    for i in range(n):
        for _ in range(int(torch.randint(4, 7, ()))):
            h, w = torch.randint(25, 55, (2,)).tolist()
            y, x = torch.randint(0, S - h, (1,)).item(), torch.randint(0, S - w, (1,)).item()
            mask[i, 0, y:y + h, x:x + w] = 1
    img = img + 0.4 * mask
    return (img - 0.5) / 0.25, mask


def soft_dice_loss(logits, target, smooth=0.0, eps=1e-7):
    p = torch.sigmoid(logits.float())
    target = target.type_as(p)
    intersection = torch.sum(p * target)
    cardinality = torch.sum(p + target)
    dice = (2.0 * intersection + smooth) / (cardinality + smooth).clamp_min(eps)
    return 1.0 - dice


Xtr, Mtr = tiles(480)
Xte, Mte = tiles(160)
model = nn.Sequential(
    nn.Conv2d(1, 6, 3, padding=1), nn.ReLU(),
    nn.Conv2d(6, 6, 3, padding=2, dilation=2), nn.ReLU(),
    nn.Conv2d(6, 1, 1),
)
opt = torch.optim.Adam(model.parameters(), lr=1e-2)

for epoch in range(4):
    perm = torch.randperm(len(Xtr))
    for i in range(0, len(perm), 32):
        idx = perm[i:i + 32]
        with torch.autocast("cpu", dtype=torch.float16):
            logits = model(Xtr[idx])
            loss = soft_dice_loss(logits, Mtr[idx])
        opt.zero_grad()
        loss.backward()
        opt.step()
    with torch.no_grad():
        logits = model(Xte)
        p = torch.sigmoid(logits)
        val = (1 - 2 * (p * Mte).sum() / (p + Mte).sum()).item()
        acc = ((p > 0.5).float() == Mte).float().mean().item()
    print(f"epoch {epoch} train_dice_loss {loss.item():.4f} val_dice_loss {val:.4f} pixel_acc {acc:.4f}")

print(f"final_loss={val:.6g} acc={acc:.4f}")
