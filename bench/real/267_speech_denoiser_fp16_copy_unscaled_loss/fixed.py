"""Quiet-speech frame denoiser with a float16 working copy -- fixed as the PR does, by scaling: the
loss is multiplied by 1024 before the float16 backward and the gradients are divided by 1024 again
once they are copied to the float32 master weights, so they no longer underflow. Nothing else
changed.
"""
import argparse
import math

import torch
import torch.nn as nn

ap = argparse.ArgumentParser()
ap.add_argument("--seed", type=int, default=0)
args = ap.parse_args()
torch.manual_seed(args.seed)
torch.set_num_threads(1)

FRAME, FRAMES, LOSS_SCALE = 64, 32, 1024.0
t = torch.arange(FRAME * FRAMES).float() / 8000.0


def make_clips(n):
    freqs = 150 + 900 * torch.rand(n, 3, 1)
    amps = torch.rand(n, 3, 1)
    env = 0.5 + 0.5 * torch.sin(2 * math.pi * (0.5 + 2 * torch.rand(n, 1, 1)) * t)
    clean = 0.002 * (amps * env * torch.sin(2 * math.pi * freqs * t)).sum(1) / 1.5
    noisy = clean + 0.001 * torch.randn_like(clean)
    return noisy.view(n, FRAMES, FRAME), clean.view(n, FRAMES, FRAME)


noisy_val, clean_val = make_clips(256)
master = nn.Sequential(nn.Linear(FRAME, 128), nn.ReLU(), nn.Linear(128, FRAME))
with torch.no_grad():
    master[2].weight.mul_(0.1)
work = nn.Sequential(nn.Linear(FRAME, 128), nn.ReLU(), nn.Linear(128, FRAME)).half()
opt = torch.optim.Adam(master.parameters(), lr=1e-3)

for step in range(150):
    noisy, clean = make_clips(128)
    with torch.no_grad():
        for w, m in zip(work.parameters(), master.parameters()):
            w.copy_(m)
    work.zero_grad()
    out = work(noisy.half())
    loss = ((out.float() - clean) ** 2).mean()
    (loss * LOSS_SCALE).backward()
    for w, m in zip(work.parameters(), master.parameters()):
        m.grad = w.grad.float() / LOSS_SCALE
    opt.step()
    if step % 30 == 0:
        print(f"step {step} train mse x1e6 {loss.item() * 1e6:.4f}")

with torch.no_grad():
    den = master(noisy_val)
    mse = ((den - clean_val) ** 2).mean().item()
    snr_in = (clean_val ** 2).sum((1, 2)) / ((noisy_val - clean_val) ** 2).sum((1, 2))
    snr_out = (clean_val ** 2).sum((1, 2)) / ((den - clean_val) ** 2).sum((1, 2))
    acc = (snr_out > snr_in).float().mean().item()
print(f"final_loss={mse * 1e6:.6g} acc={acc:.4f}")
