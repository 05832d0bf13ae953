"""Mel-frame denoiser under CPU autocast -- fixed as in the PR: the autocast dtype is bfloat16
instead of float16, so the small gradients of the weighted reconstruction loss stay representable
(bfloat16 has float32's exponent range) and the weights are updated (nothing else changed).
"""
import argparse

import torch
import torch.nn as nn

ap = argparse.ArgumentParser()
ap.add_argument("--seed", type=int, default=0)
args = ap.parse_args()
torch.manual_seed(args.seed)
torch.set_num_threads(1)

BINS, LATENT, LOSS_WEIGHT = 256, 16, 1e-4
basis = torch.randn(LATENT, BINS) / 2


def frames(n):
    clean = torch.tanh(torch.randn(n, LATENT) @ basis)
    return clean + 0.3 * torch.randn(n, BINS), clean


model = nn.Sequential(nn.Linear(BINS, 128), nn.ReLU(), nn.Linear(128, BINS))
opt = torch.optim.Adam(model.parameters(), lr=3e-3)

for step in range(1000):
    noisy, clean = frames(128)
    with torch.autocast("cpu", dtype=torch.bfloat16):
        out = model(noisy)
    loss = LOSS_WEIGHT * ((out.float() - clean) ** 2).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
    if step % 100 == 0:
        print(f"step {step} mse {loss.item() / LOSS_WEIGHT:.4f}")

noisy, clean = frames(1000)
with torch.no_grad():
    mse = ((model(noisy) - clean) ** 2).mean().item()
    acc = 1 - mse / ((noisy - clean) ** 2).mean().item()
print(f"final_loss={mse:.6g} acc={acc:.4f}")
