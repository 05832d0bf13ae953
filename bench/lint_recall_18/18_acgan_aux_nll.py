"""Auxiliary-classifier GAN on CIFAR-10: the discriminator predicts real/fake and the class."""
import torch
import torch.nn as nn
import torch.optim as optim


class Generator(nn.Module):
    def __init__(self, nz=110):
        super().__init__()
        self.fc = nn.Linear(nz, 384)
        self.net = nn.Sequential(
            nn.ConvTranspose2d(384, 192, 4, 1, 0, bias=False), nn.BatchNorm2d(192), nn.ReLU(True),
            nn.ConvTranspose2d(192, 96, 4, 2, 1, bias=False), nn.BatchNorm2d(96), nn.ReLU(True),
            nn.ConvTranspose2d(96, 48, 4, 2, 1, bias=False), nn.BatchNorm2d(48), nn.ReLU(True),
            nn.ConvTranspose2d(48, 3, 4, 2, 1, bias=False), nn.Tanh(),
        )

    def forward(self, z):
        return self.net(self.fc(z).view(-1, 384, 1, 1))


class Discriminator(nn.Module):
    def __init__(self, num_classes=10):
        super().__init__()
        self.features = nn.Sequential(
            nn.Conv2d(3, 16, 3, 2, 1, bias=False), nn.LeakyReLU(0.2, inplace=True), nn.Dropout(0.5),
            nn.Conv2d(16, 32, 3, 1, 1, bias=False), nn.BatchNorm2d(32), nn.LeakyReLU(0.2, inplace=True),
            nn.Dropout(0.5),
            nn.Conv2d(32, 64, 3, 2, 1, bias=False), nn.BatchNorm2d(64), nn.LeakyReLU(0.2, inplace=True),
            nn.Dropout(0.5),
        )
        self.fc_dis = nn.Linear(8 * 8 * 64, 1)
        self.fc_aux = nn.Linear(8 * 8 * 64, num_classes)
        self.softmax = nn.Softmax(dim=1)  # expect: softmax-before-cross-entropy

    def forward(self, x):
        flat = self.features(x).flatten(1)
        realfake = self.fc_dis(flat).squeeze(1)
        classes = self.softmax(self.fc_aux(flat))
        return realfake, classes


def train(loader, epochs=100, nz=110, num_classes=10, device="cuda"):
    netG, netD = Generator(nz).to(device), Discriminator(num_classes).to(device)
    dis_criterion = nn.BCEWithLogitsLoss()
    aux_criterion = nn.NLLLoss()
    optD = optim.Adam(netD.parameters(), lr=2e-4, betas=(0.5, 0.999))
    optG = optim.Adam(netG.parameters(), lr=2e-4, betas=(0.5, 0.999))
    for epoch in range(epochs):
        for real, label in loader:
            real, label = real.to(device), label.to(device)
            b = real.size(0)
            optD.zero_grad()
            dis_out, aux_out = netD(real)
            errD_real = dis_criterion(dis_out, torch.ones(b, device=device)) + aux_criterion(aux_out, label)
            errD_real.backward()
            noise = torch.randn(b, nz, device=device)
            fake_label = torch.randint(0, num_classes, (b,), device=device)
            noise[:, :num_classes] = nn.functional.one_hot(fake_label, num_classes).float()
            fake = netG(noise)
            dis_out, aux_out = netD(fake.detach())
            errD_fake = dis_criterion(dis_out, torch.zeros(b, device=device)) + aux_criterion(aux_out, fake_label)
            errD_fake.backward()
            optD.step()

            optG.zero_grad()
            dis_out, aux_out = netD(fake)
            errG = dis_criterion(dis_out, torch.ones(b, device=device)) + aux_criterion(aux_out, fake_label)
            errG.backward()
            optG.step()
        print(f"epoch {epoch}: D {errD_real.item() + errD_fake.item():.3f} G {errG.item():.3f}")
