"""Thermal-camera frame denoiser: a small fully-convolutional network (conv -> hand-written instance normalization -> ReLU, three blocks, residual output) trained with Adam to remove sensor noise from 16x16 frames whose pixels are raw 14-bit sensor counts (0..16383). The forward pass runs under float16 autocast to save memory and the instance-norm layer computes its per-channel variance directly on the float16 conv output: the first conv maps raw counts to activations whose spread is in the thousands, their squared deviations exceed float16's maximum (65504), the variance becomes inf, every normalized activation collapses to 0 (x / sqrt(inf)) and no gradient reaches the first conv: the network silently stops denoising and its output stays at the noisy input.

Source: https://github.com/tensorflow/tensorflow/issues/47156 (Mixed precision : Numerical instability with instance normalization layer)
Report: "Thank you for the update! I am unsure why the variance overflows quickly" -- "The tests I have done for few
days show that the mean computation may overflow ... even if there is no overflow in the input. It's certainly due to
the sum before division" -- "the NVIDIA mixed precision guide claims both mean and variance should be in float32".
Reproduced in PyTorch with CPU float16 autocast: 400 synthetic thermal frames (smooth warm blobs on a background, in raw
counts) plus Gaussian sensor noise; the fix computes the instance-norm statistics in float32. The printed loss is the
held-out MSE (counts divided by 1000), `acc` the fraction of held-out frames whose MSE beats the noisy input.

expect: fp16-overflow
symptom: final-loss-ratio 2
batch: 27
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
SCALE = 1000.0


def make_frames(n):
    yy, xx = torch.meshgrid(torch.arange(16.0), torch.arange(16.0), indexing="ij")
    frames = torch.full((n, 1, 16, 16), 7000.0) + 1500 * torch.rand(n, 1, 1, 1)
    for _ in range(3):
        cy, cx = 16 * torch.rand(n, 1, 1, 1), 16 * torch.rand(n, 1, 1, 1)
        amp, width = 800 + 2500 * torch.rand(n, 1, 1, 1), 1.5 + 2.5 * torch.rand(n, 1, 1, 1)
        frames = frames + amp * torch.exp(-((yy - cy) ** 2 + (xx - cx) ** 2) / (2 * width ** 2))
    clean = frames.clamp(0, 16383)
    return (clean + 300 * torch.randn_like(clean)).clamp(0, 16383), clean


class InstanceNorm(nn.Module):
    def __init__(self, ch, eps=1e-5):
        super().__init__()
        self.weight = nn.Parameter(torch.ones(1, ch, 1, 1))
        self.bias = nn.Parameter(torch.zeros(1, ch, 1, 1))
        self.eps = eps

    def forward(self, x):
        mu = x.mean(dim=(2, 3), keepdim=True)
        var = ((x - mu) ** 2).mean(dim=(2, 3), keepdim=True)
        return (x - mu) / torch.sqrt(var + self.eps) * self.weight + self.bias


class Denoiser(nn.Module):
    def __init__(self, ch=12):
        super().__init__()
        self.c1, self.n1 = nn.Conv2d(1, ch, 3, padding=1), InstanceNorm(ch)
        self.c2, self.n2 = nn.Conv2d(ch, ch, 3, padding=1), InstanceNorm(ch)
        self.c3 = nn.Conv2d(ch, 1, 3, padding=1)

    def forward(self, x):
        h = F.relu(self.n1(self.c1(x)))
        h = F.relu(self.n2(self.c2(h)))
        return x + 500.0 * self.c3(h)


noisy_tr, clean_tr = make_frames(400)
noisy_te, clean_te = make_frames(200)
model = Denoiser()
opt = torch.optim.Adam(model.parameters(), lr=2e-3)

for epoch in range(5):
    perm = torch.randperm(len(noisy_tr))
    for i in range(0, len(perm), 32):
        idx = perm[i:i + 32]
        with torch.autocast("cpu", dtype=torch.float16):
            out = model(noisy_tr[idx])
        loss = F.mse_loss(out.float() / SCALE, clean_tr[idx] / SCALE)
        opt.zero_grad()
        loss.backward()
        opt.step()
    print(f"epoch {epoch} train mse {loss.item():.5f}")

with torch.no_grad(), torch.autocast("cpu", dtype=torch.float16):
    out = model(noisy_te).float()
per_frame = ((out - clean_te) / SCALE).pow(2).mean(dim=(1, 2, 3))
baseline = ((noisy_te - clean_te) / SCALE).pow(2).mean(dim=(1, 2, 3))
acc = (per_frame < baseline).float().mean().item()
print(f"final_loss={per_frame.mean().item():.6g} acc={acc:.4f}")
