"""Fault: data-unnormalized. House prices from raw features: living area in square feet
(~500-4000), year built (~1950-2020), rooms (1-6), latitude/longitude (~40, -74). No
standardization. The first layer's pre-activations are in the thousands; Adam at its usual
learning rate makes the loss jump around without settling.

Mechanism: features on wildly different scales and far from zero mean.
"""
import argparse

import numpy as np
import torch
from torch import nn
from torch.utils.data import DataLoader, TensorDataset


def load(seed, n=4000):
    r = np.random.default_rng(seed)
    sqft = r.uniform(500, 4000, n)
    year = r.uniform(1950, 2020, n)
    rooms = r.integers(1, 7, n)
    lat = 40.7 + 0.2 * r.standard_normal(n)
    lon = -74.0 + 0.2 * r.standard_normal(n)
    price = 0.002 * (sqft - 2000) + 0.02 * (year - 1990) + 0.3 * rooms + 2 * (lat - 40.7) + r.normal(0, 0.3, n)
    X = np.stack([sqft, year, rooms, lat, lon], 1).astype(np.float32)
    return X, price.astype(np.float32)  # target is in sensible units, the features are not


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--epochs", type=int, default=3)
    a = ap.parse_args()
    torch.manual_seed(a.seed)
    X, y = load(a.seed)
    dl = DataLoader(TensorDataset(torch.tensor(X), torch.tensor(y)), batch_size=64, shuffle=True)
    net = nn.Sequential(nn.Linear(5, 64), nn.ReLU(), nn.Linear(64, 32), nn.ReLU(), nn.Linear(32, 1))
    opt = torch.optim.Adam(net.parameters(), lr=1e-3)
    i = 0
    for ep in range(a.epochs):
        for xb, yb in dl:
            loss = nn.functional.mse_loss(net(xb).squeeze(-1), yb)
            opt.zero_grad()
            loss.backward()
            opt.step()
            if i % 10 == 0:
                print(f"ep {ep} it {i} loss {loss.item():.4g}")
            i += 1


if __name__ == "__main__":
    main()
