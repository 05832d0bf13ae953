"""Building-footprint segmenter for aerial tiles: a small fully convolutional net predicts a per-pixel roof probability and is trained with a soft Dice loss, the whole forward pass and the loss running under CPU autocast in float16 to mimic mixed-precision training. The Dice loss follows segmentation_models.pytorch: intersection = sum(p * t) and cardinality = sum(p + t) over the whole batch of pixels. A batch of 32 tiles of 96x96 is 294,912 pixels, so both sums exceed float16's maximum of 65,504 and become inf; inf / inf is NaN, the loss is NaN on the first step and the NaN gradients wipe out the weights.

Source: https://github.com/qubvel-org/segmentation_models.pytorch/issues/463 (Mixed Precision (float16) lead to nan loss (soft_dice_score is inf))
Report: "It seems when using mixed precision the function soft_dice_score return inf because of the
intersection between output and target ... For an image of size (512, 512, 3), output and target
we'll be of the size 512*512 = 262 144, which is larger than 16-bit float (6.55e4) ... intersection =
torch.sum(output * target) >>> tensor(inf, dtype=torch.float16) ... Thus, the function
soft_dice_score return inf which lead to a nan dice loss." Reproduced with 480 synthetic 96x96
aerial tiles (rectangular roofs covering about half of each tile, brighter than the ground, with
texture noise), a 3-layer conv net, soft Dice loss on sigmoid outputs computed under
torch.autocast("cpu", dtype=torch.float16), Adam lr 1e-2, batches of 32, 4 epochs. The printed
loss is the float32 Dice loss on 160 held-out tiles, `acc` the pixel accuracy there.

expect: fp16-overflow
symptom: nonfinite
batch: 18
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
    p = torch.sigmoid(logits)
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
