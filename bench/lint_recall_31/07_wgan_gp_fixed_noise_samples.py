"""WGAN-GP on 64x64 images: critic iterations, gradient penalty and sample dumps."""
import torch
import torch.nn as nn
from torch import autograd
import torchvision.utils as vutils

DIM, BATCH, CRITIC_ITERS, LAMBDA = 64, 64, 5, 10


class Generator(nn.Module):
    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(
            nn.ConvTranspose2d(128, DIM * 8, 4, 1, 0), nn.BatchNorm2d(DIM * 8), nn.ReLU(True),
            nn.ConvTranspose2d(DIM * 8, DIM * 4, 4, 2, 1), nn.BatchNorm2d(DIM * 4), nn.ReLU(True),
            nn.ConvTranspose2d(DIM * 4, DIM * 2, 4, 2, 1), nn.BatchNorm2d(DIM * 2), nn.ReLU(True),
            nn.ConvTranspose2d(DIM * 2, DIM, 4, 2, 1), nn.BatchNorm2d(DIM), nn.ReLU(True),
            nn.ConvTranspose2d(DIM, 3, 4, 2, 1), nn.Tanh(),
        )

    def forward(self, z):
        return self.net(z.view(-1, 128, 1, 1))


class Critic(nn.Module):
    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(
            nn.Conv2d(3, DIM, 4, 2, 1), nn.LeakyReLU(0.2),
            nn.Conv2d(DIM, DIM * 2, 4, 2, 1), nn.LeakyReLU(0.2),
            nn.Conv2d(DIM * 2, DIM * 4, 4, 2, 1), nn.LeakyReLU(0.2),
            nn.Conv2d(DIM * 4, 1, 8),
        )

    def forward(self, x):
        return self.net(x).view(-1)


def gradient_penalty(critic, real, fake, device):
    alpha = torch.rand(real.size(0), 1, 1, 1, device=device)
    interp = (alpha * real + (1 - alpha) * fake).requires_grad_(True)
    out = critic(interp)
    grads = autograd.grad(out, interp, torch.ones_like(out), create_graph=True, retain_graph=True)[0]
    return ((grads.view(grads.size(0), -1).norm(2, dim=1) - 1) ** 2).mean() * LAMBDA


def generate_image(netG, fixed_noise_128, step):
    noisev = autograd.Variable(fixed_noise_128, volatile=True)  # expect: volatile-variable
    samples = netG(noisev)
    vutils.save_image(samples * 0.5 + 0.5, f"samples_{step:06d}.png", nrow=8)


def train(data_iter, iters=20000, device="cuda"):
    netG, netD = Generator().to(device), Critic().to(device)
    optG = torch.optim.Adam(netG.parameters(), lr=1e-4, betas=(0.5, 0.9))
    optD = torch.optim.Adam(netD.parameters(), lr=1e-4, betas=(0.5, 0.9))
    fixed_noise_128 = torch.randn(128, 128, device=device)
    for it in range(iters):
        for p in netD.parameters():
            p.requires_grad_(True)
        for _ in range(CRITIC_ITERS):
            real = next(data_iter).to(device)
            optD.zero_grad()
            with torch.no_grad():
                fake = netG(torch.randn(BATCH, 128, device=device))
            d_loss = netD(fake).mean() - netD(real).mean() + gradient_penalty(netD, real, fake, device)
            d_loss.backward()
            optD.step()
        for p in netD.parameters():
            p.requires_grad_(False)
        optG.zero_grad()
        g_loss = -netD(netG(torch.randn(BATCH, 128, device=device))).mean()
        g_loss.backward()
        optG.step()
        if it % 200 == 199:
            generate_image(netG, fixed_noise_128, it)
