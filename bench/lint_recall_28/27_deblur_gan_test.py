"""Conditional GAN deblurring: train step for the generator, and a test pass over the GoPro set."""
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.autograd import Variable


class ResnetGenerator(nn.Module):
    def __init__(self, ngf=32):
        super().__init__()
        self.head = nn.Sequential(nn.Conv2d(3, ngf, 7, padding=3), nn.InstanceNorm2d(ngf), nn.ReLU(True))
        self.body = nn.Sequential(nn.Conv2d(ngf, ngf, 3, padding=1), nn.InstanceNorm2d(ngf), nn.ReLU(True))
        self.tail = nn.Conv2d(ngf, 3, 7, padding=3)

    def forward(self, x):
        return torch.clamp(x + torch.tanh(self.tail(self.body(self.head(x)))), -1, 1)


class ConditionalGAN:
    def __init__(self, lr=1e-4):
        self.netG = ResnetGenerator()
        self.optimizer_G = torch.optim.Adam(self.netG.parameters(), lr=lr, betas=(0.5, 0.999))

    def set_input(self, blurred, sharp):
        self.input_A = blurred
        self.input_B = sharp

    def optimize_parameters(self):
        self.netG.train()
        self.optimizer_G.zero_grad()
        fake_B = self.netG(Variable(self.input_A))
        loss_G = F.l1_loss(fake_B, Variable(self.input_B)) * 100.0
        loss_G.backward()
        self.optimizer_G.step()
        return loss_G.item()

    def test(self):
        self.netG.eval()
        self.real_A = Variable(self.input_A, volatile=True)  # expect: volatile-variable
        self.fake_B = self.netG(self.real_A)
        self.real_B = Variable(self.input_B)
        return F.mse_loss(self.fake_B, self.real_B).item()


if __name__ == "__main__":
    model = ConditionalGAN()
    blurred = torch.rand(2, 3, 64, 64) * 2 - 1
    sharp = torch.rand(2, 3, 64, 64) * 2 - 1
    model.set_input(blurred, sharp)
    print(model.optimize_parameters())
    print(model.test())
