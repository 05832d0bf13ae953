"""Fault: saturated-activation. A gated feature network whose gates are sigmoid(W x)
with W initialised at std 3 ("so the gates start decisive"). The gate pre-activations
are ~N(0, 20): the sigmoids output exactly 0 or 1 almost everywhere, their gradient is
~0, the gates never learn, and the model is stuck with a random feature mask.

Mechanism: sigmoid gates saturated from initialisation.
"""
import argparse

import torch
import torch.nn.functional as F
from torch import nn


class Gated(nn.Module):
    def __init__(self, d=32, h=64):
        super().__init__()
        self.value = nn.Linear(d, h)
        self.gate = nn.Linear(d, h)
        self.act = nn.Sigmoid()
        nn.init.normal_(self.gate.weight, std=3.0)
        self.out = nn.Linear(h, 3)

    def forward(self, x):
        return self.out(F.relu(self.value(x)) * self.act(self.gate(x)))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--seed", type=int, default=0)
    a = ap.parse_args()
    torch.manual_seed(a.seed)
    X = torch.randn(6000, 32)
    y = (X[:, 0] - X[:, 1]).gt(0).long() + (X[:, 2] > 1).long()
    model = Gated()
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    for step in range(250):
        i = torch.randint(0, 6000, (64,))
        loss = F.cross_entropy(model(X[i]), y[i])
        opt.zero_grad()
        loss.backward()
        opt.step()


if __name__ == "__main__":
    main()
