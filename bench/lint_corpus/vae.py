"""Style: a VAE with a stable loss (clean)."""
import torch
import torch.nn.functional as F
from torch import nn


class VAE(nn.Module):
    def __init__(self, d_in=784, d_z=20):
        super().__init__()
        self.enc = nn.Linear(d_in, 400)
        self.mu = nn.Linear(400, d_z)
        self.logvar = nn.Linear(400, d_z)
        self.dec = nn.Sequential(nn.Linear(d_z, 400), nn.ReLU(), nn.Linear(400, d_in))

    def forward(self, x):
        h = F.relu(self.enc(x))
        mu, logvar = self.mu(h), self.logvar(h)
        z = mu + torch.randn_like(mu) * torch.exp(0.5 * logvar)
        return self.dec(z), mu, logvar


def loss_fn(recon_logits, x, mu, logvar):
    bce = F.binary_cross_entropy_with_logits(recon_logits, x, reduction="sum")
    kld = -0.5 * torch.sum(1 + logvar - mu.pow(2) - logvar.exp())
    return (bce + kld) / x.size(0)


def train(model, loader, epochs=10):
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    for epoch in range(epochs):
        model.train()
        for x, _ in loader:
            recon, mu, logvar = model(x.view(-1, 784))
            loss = loss_fn(recon, x.view(-1, 784), mu, logvar)
            opt.zero_grad()
            loss.backward()
            opt.step()


@torch.no_grad()
def test(model, test_loader):
    model.eval()
    total = 0.0
    for x, _ in test_loader:
        recon, mu, logvar = model(x.view(-1, 784))
        total += loss_fn(recon, x.view(-1, 784), mu, logvar).item()
    return total / len(test_loader.dataset)
