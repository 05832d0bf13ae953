"""WGAN-style trainer: several critic updates per generator update."""
import torch
import torch.nn as nn


class Critic(nn.Module):
    def __init__(self, dim=64):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(dim, 128), nn.LeakyReLU(0.2), nn.Linear(128, 1))

    def forward(self, x):
        return self.net(x)


class Generator(nn.Module):
    def __init__(self, z_dim=16, dim=64):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(z_dim, 128), nn.ReLU(), nn.Linear(128, dim))

    def forward(self, z):
        return self.net(z)


def train(loader, epochs=10, n_critic=4, z_dim=16, device="cpu"):
    G, D = Generator(z_dim).to(device), Critic().to(device)
    opt_g = torch.optim.Adam(G.parameters(), lr=1e-4, betas=(0.0, 0.9))
    opt_d = torch.optim.Adam(D.parameters(), lr=1e-4, betas=(0.0, 0.9))
    for epoch in range(epochs):
        for real in loader:
            real = real.to(device)
            for _ in range(n_critic):
                z = torch.randn(real.size(0), z_dim, device=device)
                fake = G(z).detach()
                d_loss = D(fake).mean() - D(real).mean()
                d_loss.backward()  # expect: gradients-never-cleared
                opt_d.step()
            opt_g.zero_grad()
            z = torch.randn(real.size(0), z_dim, device=device)
            g_loss = -D(G(z)).mean()
            g_loss.backward()
            opt_g.step()
        print(f"epoch {epoch} d={d_loss.item():.3f} g={g_loss.item():.3f}")
    return G, D
