"""Fault: class-imbalance. Fraud detection with 1 % positives, plain BCE, no class
weighting or resampling. The model quickly learns to predict "not fraud" for everything:
the loss falls to the prior's entropy (~0.056) within a few dozen steps and stays there,
and recall on the minority class is 0.

Mechanism: 99:1 binary labels, unweighted loss, weakly separable minority.
"""
import argparse

import torch
from torch import nn
from torch.utils.data import DataLoader, TensorDataset


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--epochs", type=int, default=2)
    a = ap.parse_args()
    torch.manual_seed(a.seed)
    n = 12000
    y = (torch.rand(n) < 0.01).float()
    x = torch.randn(n, 16)
    x[:, :2] += 0.6 * y[:, None]                # fraud shifts two features a little
    loader = DataLoader(TensorDataset(x, y), batch_size=128, shuffle=True)
    model = nn.Sequential(nn.Linear(16, 32), nn.ReLU(), nn.Linear(32, 1))
    opt = torch.optim.Adam(model.parameters(), lr=3e-3)
    crit = nn.BCEWithLogitsLoss()
    it = 0
    for ep in range(a.epochs):
        for xb, yb in loader:
            loss = crit(model(xb).squeeze(1), yb)
            opt.zero_grad()
            loss.backward()
            opt.step()
            if it % 20 == 0:
                print(f"it {it} loss {loss.item():.4f}")
            it += 1
    with torch.no_grad():
        pred = model(x).squeeze(1) > 0
    print(f"predicted positives {int(pred.sum())} / true positives {int(y.sum())}, "
          f"recall {float((pred & (y > 0)).sum() / y.sum()):.3f}")


if __name__ == "__main__":
    main()
