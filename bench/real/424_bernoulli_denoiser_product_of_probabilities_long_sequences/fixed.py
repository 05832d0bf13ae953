"""Bernoulli denoiser for long binary sequences (1-D conv net predicts per-position probabilities of the clean bits from a bit-flipped copy; sequence negative log-likelihood; Adam lr 1e-3).

Fixed: the sequence negative log-likelihood is computed in log space, as the sum of the per-position log
probabilities (`log_sigmoid` of the logits) instead of the log of the product of probabilities, so long
sequences no longer underflow to log(0).
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


def sequence_nll(logit, x):
    log_p_obs = torch.where(x > 0.5, F.logsigmoid(logit), F.logsigmoid(-logit))
    return -log_p_obs.sum(dim=1)


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
    logit = net(corrupt(clean)[:, None])[:, 0]
    loss = sequence_nll(logit, clean).mean()
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
