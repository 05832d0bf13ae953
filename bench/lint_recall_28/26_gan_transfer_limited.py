"""GAN transfer to a small target set: fine-tune a pretrained generator/discriminator pair."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class Generator(nn.Module):
    def __init__(self, z_dim=64):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(z_dim, 256), nn.ReLU(), nn.Linear(256, 3 * 32 * 32), nn.Tanh())

    def forward(self, z):
        return self.net(z).view(-1, 3, 32, 32)


class Discriminator(nn.Module):
    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(nn.Flatten(), nn.Linear(3 * 32 * 32, 256), nn.LeakyReLU(0.2), nn.Linear(256, 1))

    def forward(self, x):
        return self.net(x)


def run(iterations=6, z_dim=64):
    g, d = Generator(z_dim), Discriminator()
    g_opt = torch.optim.Adam(g.parameters(), lr=1e-4, betas=(0.0, 0.99))
    d_opt = torch.optim.Adam(d.parameters(), lr=1e-4, betas=(0.0, 0.99))
    g_sched = torch.optim.lr_scheduler.ExponentialLR(g_opt, gamma=0.99)
    d_sched = torch.optim.lr_scheduler.ExponentialLR(d_opt, gamma=0.99)
    real_data = torch.rand(64, 3, 32, 32) * 2 - 1
    for it in range(iterations):
        g_sched.step()  # expect: scheduler-before-optimizer
        real = real_data[torch.randint(0, 64, (16,))]
        z = torch.randn(16, z_dim)
        d_opt.zero_grad()
        d_loss = F.softplus(-d(real)).mean() + F.softplus(d(g(z).detach())).mean()
        d_loss.backward()
        d_opt.step()
        g_opt.zero_grad()
        g_loss = F.softplus(-d(g(torch.randn(16, z_dim)))).mean()
        g_loss.backward()
        g_opt.step()
        d_sched.step()
        print(it, d_loss.item(), g_loss.item())


if __name__ == "__main__":
    run()
