"""DCGAN on 64x64 images; writes a grid from a fixed noise batch every 100 steps."""
import torch
import torch.nn as nn
import torchvision.utils as vutils

nz, ngf, ndf = 100, 64, 64


class Generator(nn.Module):
    def __init__(self):
        super().__init__()
        self.main = nn.Sequential(
            nn.ConvTranspose2d(nz, ngf * 8, 4, 1, 0, bias=False), nn.BatchNorm2d(ngf * 8), nn.ReLU(True),
            nn.ConvTranspose2d(ngf * 8, ngf * 4, 4, 2, 1, bias=False), nn.BatchNorm2d(ngf * 4), nn.ReLU(True),
            nn.ConvTranspose2d(ngf * 4, ngf * 2, 4, 2, 1, bias=False), nn.BatchNorm2d(ngf * 2), nn.ReLU(True),
            nn.ConvTranspose2d(ngf * 2, ngf, 4, 2, 1, bias=False), nn.BatchNorm2d(ngf), nn.ReLU(True),
            nn.ConvTranspose2d(ngf, 3, 4, 2, 1, bias=False), nn.Tanh(),
        )

    def forward(self, z):
        return self.main(z)


def train(netG, netD, dataloader, device, epochs=5, outf="out"):
    criterion = nn.BCEWithLogitsLoss()
    fixed_noise = torch.randn(64, nz, 1, 1, device=device)
    optD = torch.optim.Adam(netD.parameters(), lr=2e-4, betas=(0.5, 0.999))
    optG = torch.optim.Adam(netG.parameters(), lr=2e-4, betas=(0.5, 0.999))
    for epoch in range(epochs):
        for i, (real, _) in enumerate(dataloader):
            real = real.to(device)
            b = real.size(0)
            noise = torch.randn(b, nz, 1, 1, device=device)
            fake = netG(noise)

            optD.zero_grad()
            d_real = netD(real).view(-1)
            d_fake = netD(fake.detach()).view(-1)
            errD = criterion(d_real, torch.ones_like(d_real)) + criterion(d_fake, torch.zeros_like(d_fake))
            errD.backward()
            optD.step()

            optG.zero_grad()
            out = netD(fake).view(-1)
            errG = criterion(out, torch.ones_like(out))
            errG.backward()
            optG.step()

            if i % 100 == 0:
                samples = netG(fixed_noise)  # expect: validation-in-train-mode
                vutils.save_image(samples.detach(), f"{outf}/fake_epoch_{epoch:03d}_{i:05d}.png", normalize=True)
                print(f"[{epoch}][{i}] loss_D {errD.item():.4f} loss_G {errG.item():.4f}")
