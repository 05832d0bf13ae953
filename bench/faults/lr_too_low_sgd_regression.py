"""Fault: lr-too-low. Plain SGD (no momentum) at lr=1e-5 on a standardized regression
problem: a learning rate someone lowered "to be safe" after an earlier NaN. The loss
falls by a fraction of a percent over the whole run.

Mechanism: SGD learning rate ~1000x below the stable range.
"""
import argparse

import numpy as np
import torch
from torch import nn
from torch.utils.data import DataLoader, TensorDataset


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--epochs", type=int, default=4)
    a = ap.parse_args()
    rng = np.random.default_rng(a.seed)
    torch.manual_seed(a.seed)
    X = rng.standard_normal((4000, 16)).astype(np.float32)
    y = (np.tanh(X[:, :4]).sum(1) + 0.5 * X[:, 4] * X[:, 5]).astype(np.float32)
    dl = DataLoader(TensorDataset(torch.from_numpy(X), torch.from_numpy(y)), batch_size=50, shuffle=True)
    model = nn.Sequential(nn.Linear(16, 64), nn.GELU(), nn.Linear(64, 64), nn.GELU(), nn.Linear(64, 1))
    opt = torch.optim.SGD(model.parameters(), lr=1e-5)
    for ep in range(a.epochs):
        for xb, yb in dl:
            pred = model(xb).squeeze(1)
            loss = nn.functional.mse_loss(pred, yb)
            opt.zero_grad()
            loss.backward()
            opt.step()
        print("epoch", ep, float(loss))


if __name__ == "__main__":
    main()
