"""Amortized VAE trained with an SVI-like helper; evaluation loss is computed on a held-out set."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class Encoder(nn.Module):
    def __init__(self, z_dim=20, hidden=400):
        super().__init__()
        self.fc = nn.Linear(784, hidden)
        self.mu = nn.Linear(hidden, z_dim)
        self.logvar = nn.Linear(hidden, z_dim)

    def forward(self, x):
        h = F.softplus(self.fc(x))
        return self.mu(h), self.logvar(h)


class Decoder(nn.Module):
    def __init__(self, z_dim=20, hidden=400):
        super().__init__()
        self.fc1 = nn.Linear(z_dim, hidden)
        self.fc2 = nn.Linear(hidden, 784)

    def forward(self, z):
        return self.fc2(F.softplus(self.fc1(z)))


class SVI:
    def __init__(self, encoder, decoder, optim):
        self.encoder, self.decoder, self.optim = encoder, decoder, optim

    def loss(self, x):
        mu, logvar = self.encoder(x)
        z = mu + torch.randn_like(mu) * torch.exp(0.5 * logvar)
        logits = self.decoder(z)
        rec = F.binary_cross_entropy_with_logits(logits, x, reduction="sum")
        kld = -0.5 * torch.sum(1 + logvar - mu.pow(2) - logvar.exp())
        return (rec + kld) / x.size(0)

    def step(self, x):
        loss = self.loss(x)
        self.optim.zero_grad()
        loss.backward()
        self.optim.step()
        return loss.item()

    def evaluate_loss(self, x):
        return self.loss(x).item()  # expect: validation-in-train-mode


def train(train_loader, test_loader, epochs=30, lr=1e-3, device="cpu"):
    enc, dec = Encoder().to(device), Decoder().to(device)
    optim = torch.optim.Adam(list(enc.parameters()) + list(dec.parameters()), lr=lr)
    svi = SVI(enc, dec, optim)
    for epoch in range(epochs):
        train_loss = sum(svi.step(x.view(-1, 784).to(device)) for x, _ in train_loader) / len(train_loader)
        test_loss = sum(svi.evaluate_loss(x.view(-1, 784).to(device)) for x, _ in test_loader) / len(test_loader)
        print(f"[epoch {epoch:03d}] train loss: {train_loss:.4f} test loss: {test_loss:.4f}")
    return enc, dec
