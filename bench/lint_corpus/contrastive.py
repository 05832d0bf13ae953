"""Style: contrastive / metric learning utilities (SimCLR-like) with a plain loop."""
import torch
import torch.nn.functional as F
from torch import nn


def nt_xent(z1, z2, tau=0.1):
    z1 = z1 / z1.norm(dim=1, keepdim=True)  # expect: unguarded-zero
    z2 = F.normalize(z2, dim=1)
    z = torch.cat([z1, z2])
    sim = z @ z.t() / tau
    sim.fill_diagonal_(float("-inf"))
    n = z1.size(0)
    targets = torch.cat([torch.arange(n, 2 * n), torch.arange(0, n)]).to(z.device)
    return F.cross_entropy(sim, targets)


def pairwise_dist(a, b):
    return torch.sqrt(((a[:, None] - b[None]) ** 2).sum(-1))  # expect: unguarded-zero


def triplet(anchor, pos, neg, margin=0.2):
    d_ap = (anchor - pos).pow(2).sum(-1).clamp_min(1e-12).sqrt()
    d_an = (anchor - neg).pow(2).sum(-1).clamp_min(1e-12).sqrt()
    return F.relu(d_ap - d_an + margin).mean()


def train(encoder: nn.Module, loader, steps):
    opt = torch.optim.AdamW(encoder.parameters(), lr=3e-4)
    for step, (v1, v2) in zip(range(steps), loader):
        loss = nt_xent(encoder(v1), encoder(v2))
        opt.zero_grad(set_to_none=True)
        loss.backward()
        opt.step()
