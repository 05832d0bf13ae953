"""Invertible network in the style of IRN / RealNVP: twelve affine coupling blocks, each scaling half
of the features by exp(s) with s soft-bounded by a centred sigmoid (|s| <= CLAMP), trained by maximum
likelihood on 8-dimensional sensor vectors. Each block's exp() is bounded, but the blocks multiply:
the end-to-end Jacobian can reach exp(12 * CLAMP), and over the first steps the gradient norm is in
the millions. With nothing limiting the update, those steps throw the coupling networks into a poor
region that the remaining, well-behaved steps do not repair: the negative log-likelihood ends far
above what the same network reaches when the gradient norm is clipped.

Source: https://github.com/pkuxmq/Invertible-Image-Rescaling/issues/24 (What is the reason that let you use gradient clipping here?)
Report: "I want to train the network without gradient clipping. However, the loss will converge
first and suddenly diverge." -- maintainer: "There are exp() operations and multiplications in the
coupling layer architecture, so it might be easy to have gradient explosion. Therefore, we may have to
restrict the range on exp() and apply gradient clipping ... each InvBlock has a scaling term regarding
exp(), so stacking multiple InvBlocks might lead to exponential scaling and gradient explosion even if
a single exp() is controlled in a range." Reproduced with 8-D vectors from a correlated heavy-tailed
mixture, twelve coupling blocks (CLAMP = 2), Adam (lr 2e-3) for 400 steps of batch 128 and no
gradient clipping. The printed loss is the mean NLL per dimension over the last 25 steps, `acc` the
fraction of those steps whose loss is finite and below 5.

expect: exploding-gradient
symptom: final-loss-ratio 1.4
batch: 16
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

D, BLOCKS, CLAMP, MAX_GRAD_NORM = 8, 12, 2.0, None
mix = torch.randn(D, D) / math.sqrt(D)


def sensors(n):
    base = torch.distributions.StudentT(3.0).sample((n, D))
    centre = torch.randint(0, 2, (n, 1)).float() * 3 - 1.5
    return (base + centre) @ mix


class Coupling(nn.Module):
    def __init__(self, flip):
        super().__init__()
        self.flip = flip
        self.net = nn.Sequential(nn.Linear(D // 2, 64), nn.ReLU(), nn.Linear(64, D))

    def forward(self, x):
        a, b = x.chunk(2, 1)
        if self.flip:
            a, b = b, a
        h = self.net(a)
        s = CLAMP * (torch.sigmoid(h[:, :D // 2]) * 2 - 1)
        b = b * torch.exp(s) + h[:, D // 2:]
        out = torch.cat([b, a] if self.flip else [a, b], 1)
        return out, s.sum(1)


class Flow(nn.Module):
    def __init__(self):
        super().__init__()
        self.blocks = nn.ModuleList(Coupling(i % 2 == 1) for i in range(BLOCKS))

    def nll(self, x):
        logdet = torch.zeros(len(x))
        for blk in self.blocks:
            x, ld = blk(x)
            logdet = logdet + ld
        logp = -0.5 * (x ** 2).sum(1) - 0.5 * D * math.log(2 * math.pi)
        return -(logp + logdet).mean() / D


model = Flow()
opt = torch.optim.Adam(model.parameters(), lr=2e-3)
history = []
for step in range(400):
    loss = model.nll(sensors(128))
    opt.zero_grad()
    loss.backward()
    if MAX_GRAD_NORM is not None:
        torch.nn.utils.clip_grad_norm_(model.parameters(), MAX_GRAD_NORM)
    opt.step()
    history.append(loss.item())
    if step % 50 == 0:
        print(f"step {step} nll/dim {loss.item():.4f}")

last = torch.tensor(history[-25:])
final = last.mean().item()
acc = (torch.isfinite(last) & (last < 5)).float().mean().item()
print(f"final_loss={final:.6g} acc={acc:.4f}")
