"""Fixed version of /buggy.py (the source and the report are in its docstring).

Fix: adam_epsilon 1e-4 (representable in FP16), as suggested in the thread.
"""
import argparse

import torch
import torch.nn as nn
import torch.nn.functional as F

ap = argparse.ArgumentParser()
ap.add_argument("--seed", type=int, default=0)
ap.add_argument("--adam_epsilon", type=float, default=1e-4)
args = ap.parse_args()
torch.manual_seed(args.seed)

T = 100
betas = torch.linspace(1e-4, 0.02, T)
alphas_cumprod = torch.cumprod(1 - betas, 0)

# data: 2-D points on two rings
n = 4000
theta = torch.rand(n) * 6.283
radius = torch.where(torch.rand(n) < 0.5, 1.0, 2.0)
data = torch.stack([radius * theta.cos(), radius * theta.sin()], 1)


class Denoiser(nn.Module):
    def __init__(self):
        super().__init__()
        self.t_embed = nn.Embedding(T, 32)
        self.net = nn.Sequential(nn.Linear(2 + 32, 128), nn.ReLU(), nn.Linear(128, 128), nn.ReLU(), nn.Linear(128, 2))

    def forward(self, x, t):
        return self.net(torch.cat([x, self.t_embed(t)], 1))


model = Denoiser().half()
optimizer = torch.optim.AdamW(model.parameters(), lr=1e-4, eps=args.adam_epsilon, weight_decay=1e-2)
losses = []
for step in range(150):
    x0 = data[torch.randint(0, n, (128,))]
    t = torch.randint(0, T, (128,))
    noise = torch.randn_like(x0)
    a = alphas_cumprod[t].sqrt()[:, None]
    s = (1 - alphas_cumprod[t]).sqrt()[:, None]
    noisy = (a * x0 + s * noise).half()
    model_pred = model(noisy, t)
    loss = F.mse_loss(model_pred.float(), noise.float(), reduction="mean")
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    losses.append(loss.item())
print(f"final_loss={sum(losses[-10:]) / 10:.6g} acc={0.0:.4f}")
