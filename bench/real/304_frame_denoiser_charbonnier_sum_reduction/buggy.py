"""Video-frame denoiser in the BasicSR style: a small residual conv net maps a noisy grey frame to its clean version and is trained with the Charbonnier loss sqrt((x - y)^2 + eps^2), here configured with reduction "sum" as in the EDVR recipe, and plain SGD with momentum. Summing over every pixel of every frame makes the loss, and the gradient, proportional to batch size x height x width (16 x 32 x 32 = 16,384 terms): a learning rate that suits a per-pixel loss becomes four orders of magnitude too large, the first updates overshoot, the weights blow up and the denoised frames are off by orders of magnitude (or inf).

Source: https://github.com/XPixelGroup/BasicSR/issues/359 (Why EDVR use 'sum' as the loss reduction method?)
Report: "I am thinking using sum will let the loss magnitude change if we change the batch size or
input resolution. Is there any reason to use 'sum' instead of 'mean'? ... pixel_opt: type:
CharbonnierLoss loss_weight: 1.0 reduction: sum". Reproduced with 1,600 synthetic 32x32 frames
(smooth blobs and edges) plus Gaussian noise of sigma 0.1, a 4-layer residual conv denoiser,
Charbonnier loss with reduction sum, SGD lr 0.02 momentum 0.9, batches of 16, 4 epochs. The printed
loss is the per-pixel mean Charbonnier error on 400 held-out frames, `acc` the fraction of held-out
frames whose PSNR improves on the noisy input.

expect: loss-reduction
symptom: loss-above 0.5
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

S = 32


def frames(n):
    yy, xx = torch.meshgrid(torch.linspace(0, 1, S), torch.linspace(0, 1, S), indexing="ij")
    clean = torch.zeros(n, 1, S, S)
    for _ in range(3):
        cx, cy, r = torch.rand(n, 1, 1), torch.rand(n, 1, 1), 0.1 + 0.25 * torch.rand(n, 1, 1)
        clean[:, 0] += 0.5 * torch.exp(-((xx - cx) ** 2 + (yy - cy) ** 2) / (2 * r ** 2))
    edge = (xx[None] > torch.rand(n, 1, 1)).float() * 0.3 * torch.rand(n, 1, 1)
    clean[:, 0] += edge
    clean = clean.clamp(0, 1)
    return clean + 0.1 * torch.randn_like(clean), clean


class CharbonnierLoss(nn.Module):
    def __init__(self, eps=1e-6, reduction="mean"):
        super().__init__()
        self.eps, self.reduction = eps, reduction

    def forward(self, pred, target):
        err = torch.sqrt((pred - target) ** 2 + self.eps ** 2)
        return err.sum() if self.reduction == "sum" else err.mean()


class Denoiser(nn.Module):
    def __init__(self, c=24):
        super().__init__()
        self.body = nn.Sequential(
            nn.Conv2d(1, c, 3, padding=1), nn.ReLU(),
            nn.Conv2d(c, c, 3, padding=1), nn.ReLU(),
            nn.Conv2d(c, c, 3, padding=1), nn.ReLU(),
            nn.Conv2d(c, 1, 3, padding=1),
        )

    def forward(self, x):
        return x + self.body(x)


def psnr(a, b):
    return 10 * torch.log10(1.0 / ((a - b) ** 2).mean(dim=(1, 2, 3)))


noisy_tr, clean_tr = frames(1600)
noisy_te, clean_te = frames(400)
model = Denoiser()
pixel_opt = CharbonnierLoss(reduction="sum")
opt = torch.optim.SGD(model.parameters(), lr=0.02, momentum=0.9)

for epoch in range(4):
    perm = torch.randperm(len(noisy_tr))
    for i in range(0, len(perm), 16):
        idx = perm[i:i + 16]
        loss = pixel_opt(model(noisy_tr[idx]), clean_tr[idx])
        opt.zero_grad()
        loss.backward()
        opt.step()
    with torch.no_grad():
        out = model(noisy_te)
        val = torch.sqrt((out - clean_te) ** 2 + 1e-12).mean().item()
        acc = (psnr(out, clean_te) > psnr(noisy_te, clean_te)).float().mean().item()
    print(f"epoch {epoch} train {loss.item():.4f} val_charbonnier {val:.5f} improved {acc:.3f}")

print(f"final_loss={val:.6g} acc={acc:.4f}")
