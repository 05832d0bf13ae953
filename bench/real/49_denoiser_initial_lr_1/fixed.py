"""Fixed version of /buggy.py (the source and the report are in its docstring).

Fix: train_initial_lr 1e-3, as the maintainer advised.
"""
import argparse

import torch
import torch.nn as nn

ap = argparse.ArgumentParser()
ap.add_argument("--seed", type=int, default=0)
ap.add_argument("--train_initial_lr", type=float, default=1e-3)
args = ap.parse_args()
torch.manual_seed(args.seed)


def clean_images(n, s=16):
    yy, xx = torch.meshgrid(torch.arange(s).float(), torch.arange(s).float(), indexing="ij")
    c = torch.rand(n, 2, 1, 1) * s
    r = 1.5 + 3 * torch.rand(n, 1, 1, 1)
    blob = torch.exp(-((yy - c[:, :1]) ** 2 + (xx - c[:, 1:]) ** 2) / (2 * r ** 2))
    return 3 * blob


clean = clean_images(400)
noisy = torch.poisson(clean * 4) / 4  # IMC-like shot noise


def blind_spot(x, frac=0.05):
    mask = torch.rand_like(x) < frac
    shifted = torch.roll(x, shifts=(1, 1), dims=(2, 3))
    return torch.where(mask, shifted, x), mask


model = nn.Sequential(nn.Conv2d(1, 16, 3, padding=1), nn.ReLU(), nn.Conv2d(16, 16, 3, padding=1), nn.ReLU(),
                      nn.Conv2d(16, 16, 3, padding=1), nn.ReLU(), nn.Conv2d(16, 1, 1))
opt = torch.optim.Adam(model.parameters(), lr=args.train_initial_lr)
sched = torch.optim.lr_scheduler.StepLR(opt, step_size=80, gamma=0.5)
losses = []
for step in range(200):
    idx = torch.randint(0, 400, (16,))
    x = noisy[idx]
    inp, mask = blind_spot(x)
    out = model(inp)
    loss = ((out - x) ** 2)[mask].mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
    sched.step()
    losses.append(loss.item())
with torch.no_grad():
    err = ((model(noisy[:100]) - clean[:100]) ** 2).mean().item()
    base = ((noisy[:100] - clean[:100]) ** 2).mean().item()
print(f"final_loss={sum(losses[-10:]) / 10:.6g} acc={max(0.0, 1 - err / base):.4f}")
