"""Style: the DCGAN tutorial (discriminator ending in Sigmoid, BCELoss, two optimizers)."""
import torch
import torch.nn as nn
import torch.optim as optim

nz, ngf, ndf = 100, 64, 64


class Generator(nn.Module):
    def __init__(self):
        super().__init__()
        self.main = nn.Sequential(
            nn.ConvTranspose2d(nz, ngf * 8, 4, 1, 0, bias=False), nn.BatchNorm2d(ngf * 8), nn.ReLU(True),
            nn.ConvTranspose2d(ngf * 8, 3, 4, 2, 1, bias=False), nn.Tanh(),
        )

    def forward(self, x):
        return self.main(x)


class Discriminator(nn.Module):
    def __init__(self):
        super().__init__()
        self.main = nn.Sequential(
            nn.Conv2d(3, ndf, 4, 2, 1, bias=False), nn.LeakyReLU(0.2, inplace=True),
            nn.Conv2d(ndf, 1, 4, 1, 0, bias=False), nn.Sigmoid(),
        )

    def forward(self, x):
        return self.main(x)


netG, netD = Generator(), Discriminator()
criterion = nn.BCELoss()
optimizerD = optim.Adam(netD.parameters(), lr=2e-4, betas=(0.5, 0.999))
optimizerG = optim.Adam(netG.parameters(), lr=2e-4, betas=(0.5, 0.999))


def train(dataloader, epochs):
    for epoch in range(epochs):
        for real, _ in dataloader:
            b = real.size(0)
            netD.zero_grad()
            errD_real = criterion(netD(real).view(-1), torch.ones(b))  # expect: sigmoid-before-bce
            errD_real.backward()
            fake = netG(torch.randn(b, nz, 1, 1))
            errD_fake = criterion(netD(fake.detach()).view(-1), torch.zeros(b))  # expect: sigmoid-before-bce
            errD_fake.backward()
            optimizerD.step()
            netG.zero_grad()
            errG = criterion(netD(fake).view(-1), torch.ones(b))  # expect: sigmoid-before-bce
            errG.backward()
            optimizerG.step()
