"""Fault: unstable-op. A hand-written binary cross-entropy,
-(y*log(sigmoid(z)) + (1-y)*log(1-sigmoid(z))). Once the model is confident, sigmoid(z)
rounds to exactly 1.0 in float32 (z > ~17) and log(1 - 1) = log(0) = -inf: the loss turns
inf and the gradients NaN, on an easy, well separated problem that was training fine.

Mechanism: log(0) in a hand-written loss (no clamping, no logsigmoid / BCEWithLogits).
"""
import argparse

import torch
from torch import nn


def bce(z, y):
    p = torch.sigmoid(z)
    return -(y * torch.log(p) + (1 - y) * torch.log(1 - p)).mean()


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--steps", type=int, default=400)
    a = ap.parse_args()
    torch.manual_seed(a.seed)
    x = torch.randn(4000, 10)
    y = (x[:, 0] + x[:, 1] > 0).float()
    x[:, :2] *= 3.0          # well separated: the model becomes very confident
    model = nn.Sequential(nn.Linear(10, 32), nn.ReLU(), nn.Linear(32, 1))
    opt = torch.optim.Adam(model.parameters(), lr=1e-2)
    reported = False
    for step in range(a.steps):
        i = torch.randint(0, 4000, (256,))
        loss = bce(model(x[i]).squeeze(1), y[i])
        opt.zero_grad()
        loss.backward()
        opt.step()
        if step % 25 == 0 or (not reported and not torch.isfinite(loss)):
            reported = reported or not bool(torch.isfinite(loss))
            print(f"step {step} loss {loss.item():.5f}")


if __name__ == "__main__":
    main()
