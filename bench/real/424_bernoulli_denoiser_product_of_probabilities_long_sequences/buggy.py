"""Bernoulli diffusion-style denoiser for binary sequences (e.g. presence/absence tracks of length 160): a sequence is corrupted by flipping each bit with probability 0.25, and a small 1-D conv network predicts, for every position, the probability that the clean bit is 1. The training loss is the negative log-likelihood of each clean sequence, computed the "textbook" way as `-log(prod_i p_i)` -- the product of the per-position probabilities of the observed bits, then the log. For short sequences this is fine, but with 160 positions the product of probabilities underflows float32 to exactly 0 as soon as the model is moderately uncertain, `log(0) = -inf`, the loss is inf and its gradient NaN, and the weights are destroyed.

Source: https://github.com/horenbergerb/BernoulliDiffusion/issues/15 (nan loss for large sequence_length)
Report: "As the sequence_length gets larger, the probabilities of individual outcomes rapidly approach zero.
I think this is causing nan loss to occur." -- "I think I got to the bottom of this with e159522d64. The
issue was improper clipping in the math_utilities as well as an exploding gradient problem." Reproduced
with 2,000 synthetic binary tracks (runs of 1s with random lengths and gaps). The printed loss is the
per-position NLL on 400 held-out corrupted tracks, `acc` the held-out denoising accuracy.

expect: unstable-op
symptom: nonfinite
batch: 25
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

L, FLIP = 160, 0.25


def tracks(n):
    x = torch.zeros(n, L)
    for i in range(n):
        pos = 0
        while pos < L:
            gap, run = int(torch.randint(3, 15, ())), int(torch.randint(3, 15, ()))
            x[i, pos + gap: pos + gap + run] = 1
            pos += gap + run
    return x


def corrupt(x):
    return torch.where(torch.rand_like(x) < FLIP, 1 - x, x)


def sequence_nll(p1, x):
    p_obs = torch.where(x > 0.5, p1, 1 - p1)
    return -torch.log(torch.prod(p_obs, dim=1))


net = nn.Sequential(
    nn.Conv1d(1, 32, 7, padding=3), nn.ReLU(),
    nn.Conv1d(32, 32, 7, padding=3), nn.ReLU(),
    nn.Conv1d(32, 1, 7, padding=3),
)
X_tr, X_te = tracks(2000), tracks(400)
N_te = corrupt(X_te)
opt = torch.optim.Adam(net.parameters(), lr=1e-3)
for step in range(300):
    idx = torch.randint(0, len(X_tr), (32,))
    clean = X_tr[idx]
    p1 = torch.sigmoid(net(corrupt(clean)[:, None])[:, 0])
    loss = sequence_nll(p1, clean).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
    if step % 50 == 0:
        print(f"step {step} nll {loss.item():.3f}")

with torch.no_grad():
    p1 = torch.sigmoid(net(N_te[:, None])[:, 0])
    q = p1.clamp(1e-7, 1 - 1e-7)
    nll = -(X_te * torch.log(q) + (1 - X_te) * torch.log(1 - q)).mean().item()
    acc = ((p1 > 0.5).float() == X_te).float().mean().item()
print(f"final_loss={nll:.6g} acc={acc:.4f}")
