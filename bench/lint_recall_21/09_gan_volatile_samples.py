"""Vanilla GAN on MNIST-sized images with periodic sample grids."""
import os

import torch
import torch.nn as nn
from torch.autograd import Variable
from torchvision.utils import save_image


class Generator(nn.Module):
    def __init__(self, z_dim=62, out_dim=28 * 28):
        super().__init__()
        self.net = nn.Sequential(
            nn.Linear(z_dim, 1024), nn.BatchNorm1d(1024), nn.ReLU(),
            nn.Linear(1024, out_dim), nn.Tanh(),
        )

    def forward(self, z):
        return self.net(z).view(-1, 1, 28, 28)


class Discriminator(nn.Module):
    def __init__(self, in_dim=28 * 28):
        super().__init__()
        self.net = nn.Sequential(nn.Flatten(), nn.Linear(in_dim, 1024), nn.LeakyReLU(0.2), nn.Linear(1024, 1))

    def forward(self, x):
        return self.net(x)


class GAN:
    def __init__(self, batch_size=64, z_dim=62, gpu_mode=True, result_dir="results"):
        self.batch_size, self.z_dim, self.gpu_mode, self.result_dir = batch_size, z_dim, gpu_mode, result_dir
        self.G, self.D = Generator(z_dim), Discriminator()
        self.G_optimizer = torch.optim.Adam(self.G.parameters(), lr=2e-4, betas=(0.5, 0.999))
        self.D_optimizer = torch.optim.Adam(self.D.parameters(), lr=2e-4, betas=(0.5, 0.999))
        self.BCE_loss = nn.BCEWithLogitsLoss()
        if self.gpu_mode:
            self.G, self.D = self.G.cuda(), self.D.cuda()
            self.BCE_loss = self.BCE_loss.cuda()

    def train_step(self, x_):
        z_ = torch.rand((x_.size(0), self.z_dim))
        y_real, y_fake = torch.ones(x_.size(0), 1), torch.zeros(x_.size(0), 1)
        if self.gpu_mode:
            x_, z_, y_real, y_fake = x_.cuda(), z_.cuda(), y_real.cuda(), y_fake.cuda()

        self.D_optimizer.zero_grad()
        D_loss = self.BCE_loss(self.D(x_), y_real) + self.BCE_loss(self.D(self.G(z_).detach()), y_fake)
        D_loss.backward()
        self.D_optimizer.step()

        self.G_optimizer.zero_grad()
        G_loss = self.BCE_loss(self.D(self.G(z_)), y_real)
        G_loss.backward()
        self.G_optimizer.step()
        return D_loss.item(), G_loss.item()

    def visualize_results(self, epoch):
        self.G.eval()
        os.makedirs(self.result_dir, exist_ok=True)
        sample_z_ = Variable(torch.rand((self.batch_size, self.z_dim)), volatile=True)  # expect: volatile-variable
        if self.gpu_mode:
            sample_z_ = sample_z_.cuda()
        samples = self.G(sample_z_)
        save_image((samples.data + 1) / 2, os.path.join(self.result_dir, f"epoch{epoch:03d}.png"), nrow=8)
        self.G.train()


if __name__ == "__main__":
    gan = GAN(gpu_mode=torch.cuda.is_available())
    for epoch in range(3):
        for _ in range(10):
            gan.train_step(torch.rand(64, 1, 28, 28) * 2 - 1)
        gan.visualize_results(epoch)
