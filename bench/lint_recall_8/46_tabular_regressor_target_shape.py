# Source: https://github.com/pytorch/pytorch/issues/19699
# Pitfall: MSELoss between the (N, 1) regression output and an (N,) target broadcasts to (N, N),
# so every prediction is pulled toward the batch mean of the targets instead of its own label.
# Reproduced in our own words, not the original code.
import numpy as np
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset


class PriceMLP(nn.Module):
    def __init__(self, n_features, width=64):
        super().__init__()
        self.body = nn.Sequential(
            nn.Linear(n_features, width), nn.ReLU(),
            nn.Linear(width, width), nn.ReLU(),
            nn.Linear(width, 1),
        )

    def forward(self, x):
        return self.body(x)


def make_loaders(features: np.ndarray, prices: np.ndarray, batch_size=128):
    x = torch.as_tensor(features, dtype=torch.float32)
    y = torch.as_tensor(prices, dtype=torch.float32)
    split = int(0.8 * len(x))
    train = TensorDataset(x[:split], y[:split])
    valid = TensorDataset(x[split:], y[split:])
    return (DataLoader(train, batch_size=batch_size, shuffle=True),
            DataLoader(valid, batch_size=batch_size))


def fit(features, prices, epochs=50):
    train_dl, valid_dl = make_loaders(features, prices)
    net = PriceMLP(features.shape[1])
    mse = nn.MSELoss()
    opt = torch.optim.Adam(net.parameters(), lr=1e-3)
    for epoch in range(epochs):
        net.train()
        for xb, yb in train_dl:
            opt.zero_grad()
            loss = mse(net(xb), yb)  # expect: loss-shape-broadcast
            loss.backward()
            opt.step()
        net.eval()
        with torch.no_grad():
            errs = [torch.abs(net(xb).squeeze(1) - yb).mean().item() for xb, yb in valid_dl]
        print(f"epoch {epoch}: val MAE {sum(errs) / len(errs):.3f}")
    return net
