"""Thermal-camera frame denoiser (raw 14-bit counts, float16 autocast): the same program with the hand-written instance-norm layer computing its mean and variance in float32 (the activation is upcast for the statistics and the result cast back to the autocast dtype), so the squared deviations no longer overflow float16 and the network learns to denoise.
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
        x32 = x.float()
        mu = x32.mean(dim=(2, 3), keepdim=True)
        var = ((x32 - mu) ** 2).mean(dim=(2, 3), keepdim=True)
        return ((x32 - mu) / torch.sqrt(var + self.eps) * self.weight + self.bias).to(x.dtype)


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
