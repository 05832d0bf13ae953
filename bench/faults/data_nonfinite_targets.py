"""Fault: data-nonfinite. Regression on log(price) where a few listings have price 0
(free items, data-entry errors): log(0) = -inf in the *targets*, computed once in
preprocessing, so the loss goes inf -> NaN the first time such a row is drawn.

Mechanism: non-finite targets created by an unguarded log transform of the label column.
"""
import argparse
import math

import torch
import torch.nn.functional as F


def make_data(seed, n=3000, d=10):
    g = torch.Generator().manual_seed(seed)
    x = torch.randn(n, d, generator=g)
    price = torch.exp(1.0 + x[:, :3].sum(1) * 0.5 + 0.1 * torch.randn(n, generator=g))
    zero = torch.randperm(n, generator=g)[:4]
    price[zero] = 0.0  # listed for free
    return x, torch.log(price)


class Regressor(torch.nn.Module):
    def __init__(self, d):
        super().__init__()
        self.fc1 = torch.nn.Linear(d, 32)
        self.fc2 = torch.nn.Linear(32, 1)

    def forward(self, x):
        return self.fc2(F.gelu(self.fc1(x))).squeeze(-1)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--steps", type=int, default=150)
    a = ap.parse_args()
    torch.manual_seed(a.seed)
    x, y = make_data(a.seed)
    model = Regressor(x.shape[1])
    opt = torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9)
    bs = 48
    for step in range(a.steps):
        idx = torch.randint(0, len(x), (bs,))
        loss = F.mse_loss(model(x[idx]), y[idx])
        opt.zero_grad(set_to_none=True)
        loss.backward()
        opt.step()
        if step % 10 == 0:
            print(f"step {step:4d}  loss {loss.item():.4f}")
    print("final loss", loss.item(), "finite" if math.isfinite(loss.item()) else "NOT FINITE")


if __name__ == "__main__":
    main()
