"""Fault: dead-relu. A wide one-hidden-layer ReLU regressor trained with SGD at lr=0.5 on
targets with a large offset (mean 20). The first few updates push the hidden biases far
negative while chasing the offset: within a few steps most hidden units are dead for every
input and stay dead (a dead ReLU gets no gradient to come back), and the loss stalls well
above what the model could reach.

Mechanism: a large early update kills most ReLU units.
"""
import argparse

import torch
from torch import nn
from torch.utils.data import DataLoader, TensorDataset


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--seed", type=int, default=0)
    a = ap.parse_args()
    torch.manual_seed(a.seed)
    X = torch.randn(6000, 8)
    y = 20 + 3 * X[:, 0] - 2 * X[:, 1] + X[:, 2] * X[:, 3]
    model = nn.Sequential(nn.Linear(8, 256), nn.ReLU(), nn.Linear(256, 1))
    opt = torch.optim.SGD(model.parameters(), lr=0.5)
    for epoch in range(3):
        for xb, yb in DataLoader(TensorDataset(X, y), batch_size=100, shuffle=True):
            loss = nn.functional.mse_loss(model(xb).squeeze(1), yb)
            opt.zero_grad()
            loss.backward()
            opt.step()


if __name__ == "__main__":
    main()
