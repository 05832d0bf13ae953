# Source: https://github.com/pytorch/pytorch/issues/751
# Pitfall: the GAN discriminator ends in a Sigmoid and is trained with nn.BCELoss, which is
#   numerically unstable once the scores saturate; the request led to BCEWithLogitsLoss.
# Reproduced in our own words, not the original code.
import torch
import torch.nn as nn

nz, ngf, ndf = 100, 64, 64


class Discriminator(nn.Module):
    def __init__(self):
        super().__init__()
        self.main = nn.Sequential(
            nn.Conv2d(3, ndf, 4, 2, 1, bias=False), nn.LeakyReLU(0.2, inplace=True),
            nn.Conv2d(ndf, ndf * 2, 4, 2, 1, bias=False), nn.BatchNorm2d(ndf * 2), nn.LeakyReLU(0.2, inplace=True),
            nn.Conv2d(ndf * 2, 1, 8, 1, 0, bias=False),
            nn.Sigmoid(),
        )

    def forward(self, x):
        return self.main(x).view(-1)


def train_gan(netG, netD, loader, epochs, device):
    criterion = nn.BCELoss()
    optD = torch.optim.Adam(netD.parameters(), lr=2e-4, betas=(0.5, 0.999))
    optG = torch.optim.Adam(netG.parameters(), lr=2e-4, betas=(0.5, 0.999))
    for epoch in range(epochs):
        for real, _ in loader:
            real = real.to(device)
            b = real.size(0)
            ones = torch.ones(b, device=device)
            zeros = torch.zeros(b, device=device)

            netD.zero_grad()
            noise = torch.randn(b, nz, 1, 1, device=device)
            fake = netG(noise)
            errD = criterion(netD(real), ones) + criterion(netD(fake.detach()), zeros)  # expect: sigmoid-before-bce
            errD.backward()
            optD.step()

            netG.zero_grad()
            errG = criterion(netD(fake), ones)  # expect: sigmoid-before-bce
            errG.backward()
            optG.step()
        print(f"epoch {epoch}: D {errD.item():.3f} G {errG.item():.3f}")
