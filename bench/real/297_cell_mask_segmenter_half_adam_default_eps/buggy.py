"""Microscopy cell-mask segmenter trained entirely in half precision (the whole model cast with `.half()`, images cast to float16, a small fully convolutional net predicting background / nucleus / membrane for every pixel, pixelwise cross-entropy, Adam with its default settings). Adam's default epsilon, 1e-8, is below the smallest number float16 can hold, so it is rounded to exactly zero inside the update; the squared-gradient running average of most weights also rounds to zero (a gradient of 1e-3 squared and scaled by 1 - beta2 is far below float16's range), and the update divides a non-zero first moment by a zero denominator -- the weights become inf and the loss NaN within the first steps.

Source: https://github.com/soumith/cudnn.torch/issues/377 (Loss is NaN when using half precision)
Report: "When I run my model on half precision(fp16) the Loss function returns NaN. It all works fine
when I use normal floating point precision (fp32) ... Okay I figured out that the nan's were due the
adam optimisation. The default epsilon of 1e-8 is too low and rounded to zero." Reproduced with 1,200
synthetic 24x24 grey-scale cell images (nuclei as bright disks, membranes as rings, noise), a 4-layer
conv net cast to float16 and Adam(lr=1e-3) with the default eps, 4 epochs of batches of 32. The
printed loss is the pixelwise cross-entropy on 300 held-out images, `acc` the pixel accuracy there.

expect: fp16-underflow
symptom: nonfinite
batch: 18
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
opt = torch.optim.Adam(model.parameters(), lr=1e-3)

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
