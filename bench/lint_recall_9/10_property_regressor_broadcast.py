# Source: https://github.com/pytorch/pytorch/pull/18349
# Pitfall: a single-output regressor returns (N, 1) while the targets are (N,); F.mse_loss broadcasts the
#   pair to an (N, N) matrix and the model is trained towards the mean target instead of each sample's.
# Reproduced in our own words, not the original code.
import argparse

import torch
import torch.nn as nn
import torch.nn.functional as F


class PropertyMLP(nn.Module):
    def __init__(self, n_in, hidden=128):
        super().__init__()
        self.body = nn.Sequential(nn.Linear(n_in, hidden), nn.SiLU(), nn.Linear(hidden, hidden), nn.SiLU())
        self.out = nn.Linear(hidden, 1)

    def forward(self, x):
        return self.out(self.body(x))


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--epochs", type=int, default=50)
    parser.add_argument("--lr", type=float, default=1e-3)
    args = parser.parse_args()

    x = torch.randn(2048, 16)
    y = x[:, :4].sum(dim=1) + 0.1 * torch.randn(2048)
    ds = torch.utils.data.TensorDataset(x, y)
    loader = torch.utils.data.DataLoader(ds, batch_size=64, shuffle=True)

    model = PropertyMLP(16)
    opt = torch.optim.Adam(model.parameters(), lr=args.lr)
    for epoch in range(args.epochs):
        for xb, yb in loader:
            pred = model(xb)
            loss = F.mse_loss(pred, yb)  # expect: loss-shape-broadcast
            opt.zero_grad()
            loss.backward()
            opt.step()
        print(epoch, loss.item())


if __name__ == "__main__":
    main()
