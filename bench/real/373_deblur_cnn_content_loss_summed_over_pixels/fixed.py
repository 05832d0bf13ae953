"""Image deblurring CNN -- fixed as the author suggests by averaging the pixel content loss over pixels and
patches (`.mean()` instead of `.sum()`), so the gradient has the per-pixel scale the learning rate was chosen
for (nothing else changed).
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

SIDE, BATCH = 24, 32


def make_patches(n):
    img = torch.zeros(n, 1, SIDE, SIDE)
    for _ in range(4):
        y0, x0 = torch.randint(0, SIDE - 6, (2, n))
        h, w = torch.randint(3, 10, (2, n))
        val = torch.rand(n)
        rows, cols = torch.arange(SIDE)[None, :, None], torch.arange(SIDE)[None, None, :]
        box = ((rows >= y0[:, None, None]) & (rows < (y0 + h)[:, None, None]) &
               (cols >= x0[:, None, None]) & (cols < (x0 + w)[:, None, None]))
        img[:, 0] = torch.where(box, val[:, None, None], img[:, 0])
    blurred = F.avg_pool2d(F.pad(img, (2, 2, 2, 2), mode="replicate"), 5, stride=1)
    return blurred + 0.02 * torch.randn_like(blurred), img


class Deblur(nn.Module):
    def __init__(self):
        super().__init__()
        self.body = nn.Sequential(nn.Conv2d(1, 24, 3, padding=1), nn.ReLU(), nn.Conv2d(24, 24, 3, padding=1),
                                  nn.ReLU(), nn.Conv2d(24, 1, 3, padding=1))

    def forward(self, x):
        return x + self.body(x)


def content_loss(restored, sharp):
    return ((restored - sharp) ** 2).mean()


blurred, sharp = make_patches(3000)
held_blurred, held_sharp = make_patches(300)
model = Deblur()
opt = torch.optim.SGD(model.parameters(), lr=0.02, momentum=0.9)
for step in range(250):
    start = (step * BATCH) % len(blurred)
    xb, yb = blurred[start:start + BATCH], sharp[start:start + BATCH]
    loss = content_loss(model(xb), yb)
    opt.zero_grad()
    loss.backward()
    opt.step()
    if step % 50 == 49:
        print(f"step {step + 1} content loss {loss.item():.4f}")

with torch.no_grad():
    restored = model(held_blurred)
    per_patch = ((restored - held_sharp) ** 2).mean(dim=(1, 2, 3))
    baseline = ((held_blurred - held_sharp) ** 2).mean(dim=(1, 2, 3))
    acc = (per_patch < baseline).float().mean().item()
print(f"final_loss={per_patch.mean().item():.6g} acc={acc:.4f}")
