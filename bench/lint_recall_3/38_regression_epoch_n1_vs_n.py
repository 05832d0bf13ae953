# Source: https://github.com/pytorch/pytorch/issues/16045
# Pitfall: A generic one-epoch training helper feeds a regression model's (N, 1) output and the
# DataLoader's (N,) targets to the MSE loss; broadcasting turns it into an (N, N) comparison.
# Reproduced in our own words, not the original code.
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset


def train_epoch(model: nn.Module, dl: DataLoader, opt: torch.optim.Optimizer, loss_func) -> float:
    model.train()
    seen = 0.0
    for xb, yb in dl:
        loss = loss_func(model(xb), yb)  # expect: loss-shape-broadcast
        loss.backward()
        opt.step()
        opt.zero_grad()
        seen += loss.item()
    return seen / len(dl)


def main():
    x = torch.randn(512, 8)
    y = x @ torch.randn(8) + 0.1 * torch.randn(512)
    dl = DataLoader(TensorDataset(x, y), batch_size=32, shuffle=True)
    model = nn.Sequential(nn.Linear(8, 16), nn.ReLU(), nn.Linear(16, 1))
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    for _ in range(10):
        print(train_epoch(model, dl, opt, nn.MSELoss()))
