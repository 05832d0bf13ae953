"""Heteroscedastic regression: the network predicts a mean and a positive scale per target."""
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset


def softplus(x):
    return torch.log(torch.exp(x) + 1)  # expect: unshifted-logsumexp


class GaussianHead(nn.Module):
    def __init__(self, in_dim, hidden=64):
        super().__init__()
        self.body = nn.Sequential(nn.Linear(in_dim, hidden), nn.ReLU(), nn.Linear(hidden, hidden), nn.ReLU())
        self.mean = nn.Linear(hidden, 1)
        self.raw_scale = nn.Linear(hidden, 1)

    def forward(self, x):
        h = self.body(x)
        return self.mean(h).squeeze(-1), softplus(self.raw_scale(h)).squeeze(-1) + 1e-4


def gaussian_nll(mu, sigma, y):
    return (torch.log(sigma) + 0.5 * ((y - mu) / sigma) ** 2).mean()


def fit(model, loader, epochs=50):
    opt = torch.optim.Adam(model.parameters(), lr=3e-3)
    for epoch in range(epochs):
        model.train()
        total = 0.0
        for x, y in loader:
            mu, sigma = model(x)
            loss = gaussian_nll(mu, sigma, y)
            opt.zero_grad()
            loss.backward()
            opt.step()
            total += loss.item() * x.size(0)
        if epoch % 10 == 0:
            print(f"epoch {epoch}: nll {total / len(loader.dataset):.4f}")


if __name__ == "__main__":
    x = torch.randn(2000, 8)
    y = x[:, 0] * 3 + torch.randn(2000) * (0.5 + x[:, 1].abs())
    fit(GaussianHead(8), DataLoader(TensorDataset(x, y), batch_size=64, shuffle=True))
