"""AC-GAN discriminator head: a real/fake probability and class log-probabilities, trained with BCE + NLL."""
import torch
import torch.nn as nn


class Discriminator(nn.Module):
    def __init__(self, num_classes=10):
        super().__init__()
        self.conv = nn.Sequential(
            nn.Conv2d(3, 16, 3, 2, 1, bias=False), nn.LeakyReLU(0.2, inplace=True), nn.Dropout(0.5),
            nn.Conv2d(16, 32, 3, 1, 1, bias=False), nn.BatchNorm2d(32), nn.LeakyReLU(0.2, inplace=True),
            nn.Conv2d(32, 64, 3, 2, 1, bias=False), nn.BatchNorm2d(64), nn.LeakyReLU(0.2, inplace=True),
        )
        self.fc_dis = nn.Linear(8 * 8 * 64, 1)
        self.fc_aux = nn.Linear(8 * 8 * 64, num_classes)
        self.log_softmax = nn.LogSoftmax(dim=1)
        self.sigmoid = nn.Sigmoid()

    def forward(self, x):
        flat = self.conv(x).flatten(1)
        realfake = self.sigmoid(self.fc_dis(flat)).view(-1)
        classes = self.log_softmax(self.fc_aux(flat))
        return realfake, classes


dis_criterion = nn.BCELoss()
aux_criterion = nn.NLLLoss()


def adversarial_loss(dis_output, is_real):
    target = torch.full_like(dis_output, 1.0 if is_real else 0.0)
    return dis_criterion(dis_output, target)  # expect: sigmoid-before-bce


def d_step(netD, netG, optimizerD, real, label, nz, num_classes, device):
    b = real.size(0)
    optimizerD.zero_grad()
    dis_output, aux_output = netD(real)
    errD_real = adversarial_loss(dis_output, True) + aux_criterion(aux_output, label)
    errD_real.backward()

    noise = torch.randn(b, nz, device=device)
    fake_label = torch.randint(0, num_classes, (b,), device=device)
    fake = netG(noise, fake_label)
    dis_output, aux_output = netD(fake.detach())
    errD_fake = adversarial_loss(dis_output, False) + aux_criterion(aux_output, fake_label)
    errD_fake.backward()
    optimizerD.step()
    return fake, fake_label, (errD_real + errD_fake).item()


def g_step(netD, optimizerG, fake, fake_label):
    optimizerG.zero_grad()
    dis_output, aux_output = netD(fake)
    errG = adversarial_loss(dis_output, True) + aux_criterion(aux_output, fake_label)
    errG.backward()
    optimizerG.step()
    return errG.item()


def train(netD, netG, loader, epochs=100, nz=110, num_classes=10, device="cuda"):
    optimizerD = torch.optim.Adam(netD.parameters(), lr=2e-4, betas=(0.5, 0.999))
    optimizerG = torch.optim.Adam(netG.parameters(), lr=2e-4, betas=(0.5, 0.999))
    for epoch in range(epochs):
        for real, label in loader:
            real, label = real.to(device), label.to(device)
            fake, fake_label, errD = d_step(netD, netG, optimizerD, real, label, nz, num_classes, device)
            errG = g_step(netD, optimizerG, fake, fake_label)
        print(f"epoch {epoch}: D {errD:.3f} G {errG:.3f}")
