"""Electricity-load forecaster written as a small Trainer class: an MLP (48 past hourly readings in, two hidden layers of 128 GELU units, the next 12 hours out), MSE, Adam lr 1e-4, batches of 128 sliced from pre-built windows, 1,000 steps. To train "in bf16" the trainer casts the whole model -- weights included -- to bfloat16 and feeds it bfloat16 inputs. bfloat16 keeps only 8 significant bits, so a weight of size 0.1 can only move in steps of about 5e-4; Adam's per-step changes of about 1e-4 are rounded away for every weight larger than a few hundredths, so most of the network barely moves, and the loss decreases far more slowly than the same model trained with float32 weights.

Source: https://github.com/hp-l33/AiM/issues/10 (About bf16)
Report: "I found that although you set bf16=True in TrainingArguments, it seems the entire model is still
being trained in fp32 ... Then when I forcibly put the entire model in bf16, the loss decreases much more
slowly." -- the maintainer: "When setting bf16, the model weights are stored in bf16, while gradients
(computed in half-precision and then converted to full precision for updates) and optimizer states are still
processed in full 32-bit precision." Reproduced with 6,000 synthetic load windows (daily and weekly cycles
with random amplitudes, trend and noise, standardised) and the trainer above. The printed loss is the MSE on
1,000 held-out windows (computed in float32), `acc` the fraction of held-out windows with MSE below 0.1.

expect: fp16-underflow
symptom: final-loss-ratio 1.5
batch: 22
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
trainer = Trainer(model, lr=1e-4, bf16=True)

for step in range(1000):
    idx = torch.randint(0, len(X_train), (128,))
    loss = trainer.step(X_train[idx], Y_train[idx])
    if step % 200 == 199:
        print(f"step {step + 1} train mse {loss:.4f} held-out mse {trainer.evaluate(X_held, Y_held)[0]:.4f}")

held_loss, acc = trainer.evaluate(X_held, Y_held)
print(f"final_loss={held_loss:.6g} acc={acc:.4f}")
