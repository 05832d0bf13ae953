"""Fixed version of 41_impulse_fit_default_lr/buggy.py (the source and the report are in its docstring).

Fix: a larger default learning rate (0.05).
"""
import argparse

import torch

ap = argparse.ArgumentParser()
ap.add_argument("--seed", type=int, default=0)
ap.add_argument("--learning_rate", type=float, default=0.05)
args = ap.parse_args()
torch.manual_seed(args.seed)

n_genes, times = 50, torch.linspace(0, 10, 25)
true = {"h0": torch.randn(n_genes), "h1": torch.randn(n_genes) * 2, "h2": torch.randn(n_genes),
        "t1": 2 + 2 * torch.rand(n_genes), "t2": 6 + 2 * torch.rand(n_genes), "v": 1 + torch.rand(n_genes)}


def impulse(p, t):
    s1 = torch.sigmoid(p["v"][:, None] * (t[None] - p["t1"][:, None]))
    s2 = torch.sigmoid(-p["v"][:, None] * (t[None] - p["t2"][:, None]))
    return p["h0"][:, None] + (p["h1"][:, None] - p["h0"][:, None]) * s1 + (p["h2"][:, None] - p["h1"][:, None]) * (1 - s2)


obs = impulse(true, times) + 0.1 * torch.randn(n_genes, len(times))
params = {"h0": torch.zeros(n_genes), "h1": torch.zeros(n_genes), "h2": torch.zeros(n_genes),
          "t1": torch.full((n_genes,), 3.0), "t2": torch.full((n_genes,), 7.0), "v": torch.ones(n_genes)}
for v in params.values():
    v.requires_grad_(True)
opt = torch.optim.Adam(params.values(), lr=args.learning_rate)
losses = []
for step in range(300):
    loss = ((impulse(params, times) - obs) ** 2).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
    losses.append(loss.item())
print(f"final_loss={sum(losses[-10:]) / 10:.6g} acc={0.0:.4f}")
