"""Fault: fp16-overflow. The whole model and its inputs are cast with .half() "to save
memory", and the regression targets are raw prices in dollars (hundreds of thousands).
The output layer has to produce values above 65504, float16's maximum: the outputs and
the squared error overflow to inf and the run goes NaN. (CPU float16 kernels.)

Mechanism: float16 values beyond 65504 in a pure-half model (no autocast, no scaling).
"""
import argparse

import torch
from torch import nn


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--steps", type=int, default=150)
    a = ap.parse_args()
    torch.manual_seed(a.seed)
    X = torch.randn(3000, 8)
    price = 2e5 + 5e4 * X[:, 0] + 3e4 * X[:, 1] - 2e4 * X[:, 2]     # dollars
    model = nn.Sequential(nn.Linear(8, 64), nn.ReLU(), nn.Linear(64, 1)).half()
    opt = torch.optim.SGD(model.parameters(), lr=1e-4)
    for step in range(a.steps):
        j = torch.randint(0, 3000, (64,))
        out = model(X[j].half()).squeeze(1)
        loss = ((out - price[j].half()) ** 2).mean()
        opt.zero_grad()
        loss.backward()
        opt.step()
        if step % 10 == 0:
            print(f"step {step} loss {loss.item():.4g} max|out| {out.abs().max().item():.4g}")


if __name__ == "__main__":
    main()
