# Source: https://github.com/adriansahlman/stylegan2_pytorch/pull/11
# Pitfall: the GAN trainer records each iteration's loss tensor in its history for logging, so every
# step's computation graph stays referenced and CUDA memory climbs until it runs out.
# Reproduced in our own words, not the original code.
from collections import defaultdict

import torch
import torch.nn as nn
import torch.nn.functional as F


class Generator(nn.Module):
    def __init__(self, z_dim=64, out_dim=784):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(z_dim, 256), nn.LeakyReLU(0.2), nn.Linear(256, out_dim), nn.Tanh())

    def forward(self, z):
        return self.net(z)


class Discriminator(nn.Module):
    def __init__(self, in_dim=784):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(in_dim, 256), nn.LeakyReLU(0.2), nn.Linear(256, 1))

    def forward(self, x):
        return self.net(x)


class GANTrainer:
    def __init__(self, G, D, z_dim=64, lr=2e-4):
        self.G, self.D, self.z_dim = G, D, z_dim
        self.opt_g = torch.optim.Adam(G.parameters(), lr=lr, betas=(0.0, 0.99))
        self.opt_d = torch.optim.Adam(D.parameters(), lr=lr, betas=(0.0, 0.99))
        self.history = defaultdict(list)

    def d_step(self, real):
        z = torch.randn(real.size(0), self.z_dim)
        fake = self.G(z).detach()
        self.opt_d.zero_grad()
        d_loss = F.softplus(self.D(fake)).mean() + F.softplus(-self.D(real)).mean()
        d_loss.backward()
        self.opt_d.step()
        self.history["D"].append(d_loss.item())

    def g_step(self, batch_size):
        z = torch.randn(batch_size, self.z_dim)
        self.opt_g.zero_grad()
        g_loss = F.softplus(-self.D(self.G(z))).mean()
        g_loss.backward()
        self.opt_g.step()
        self.history["G"].append(g_loss)  # expect: running-loss-keeps-graph

    def train(self, data, iters=100, batch_size=32):
        self.G.train()
        self.D.train()
        for it in range(iters):
            idx = torch.randint(0, data.size(0), (batch_size,))
            self.d_step(data[idx])
            self.g_step(batch_size)
            if it % 20 == 0:
                print(it, self.history["D"][-1], float(self.history["G"][-1]))


if __name__ == "__main__":
    GANTrainer(Generator(), Discriminator()).train(torch.rand(1000, 784) * 2 - 1, iters=40)
