"""Basic GAN as a LightningModule: MLP generator and discriminator on flattened images."""
import numpy as np
import pytorch_lightning as pl
import torch
import torch.nn as nn
import torch.nn.functional as F


class Generator(nn.Module):
    def __init__(self, latent_dim, img_shape, hidden_dim=256):
        super().__init__()
        self.img_shape = img_shape
        out = int(np.prod(img_shape))
        self.net = nn.Sequential(nn.Linear(latent_dim, hidden_dim), nn.LeakyReLU(0.2),
                                 nn.Linear(hidden_dim, hidden_dim * 2), nn.LeakyReLU(0.2),
                                 nn.Linear(hidden_dim * 2, out), nn.Tanh())

    def forward(self, z):
        return self.net(z).view(z.size(0), *self.img_shape)


class Discriminator(nn.Module):
    def __init__(self, img_shape, hidden_dim=1024):
        super().__init__()
        in_dim = int(np.prod(img_shape))
        self.fc1 = nn.Linear(in_dim, hidden_dim)
        self.fc2 = nn.Linear(hidden_dim, hidden_dim // 2)
        self.fc3 = nn.Linear(hidden_dim // 2, 1)

    def forward(self, img):
        x = img.view(img.size(0), -1)
        x = F.leaky_relu(self.fc1(x), 0.2)
        x = F.dropout(x, 0.3)  # expect: functional-dropout-always-on
        x = F.leaky_relu(self.fc2(x), 0.2)
        return self.fc3(x)


class GAN(pl.LightningModule):
    def __init__(self, img_shape=(1, 28, 28), latent_dim=32, lr=2e-4):
        super().__init__()
        self.automatic_optimization = False
        self.latent_dim, self.lr = latent_dim, lr
        self.generator = Generator(latent_dim, img_shape)
        self.discriminator = Discriminator(img_shape)

    def training_step(self, batch, batch_idx):
        real, _ = batch
        opt_g, opt_d = self.optimizers()
        z = torch.randn(real.size(0), self.latent_dim, device=self.device)
        fake = self.generator(z)
        ones = torch.ones(real.size(0), 1, device=self.device)
        zeros = torch.zeros(real.size(0), 1, device=self.device)

        g_loss = F.binary_cross_entropy_with_logits(self.discriminator(fake), ones)
        opt_g.zero_grad()
        self.manual_backward(g_loss)
        opt_g.step()

        d_real = F.binary_cross_entropy_with_logits(self.discriminator(real), ones)
        d_fake = F.binary_cross_entropy_with_logits(self.discriminator(fake.detach()), zeros)
        d_loss = (d_real + d_fake) / 2
        opt_d.zero_grad()
        self.manual_backward(d_loss)
        opt_d.step()
        self.log_dict({"g_loss": g_loss, "d_loss": d_loss})

    def configure_optimizers(self):
        opt_g = torch.optim.Adam(self.generator.parameters(), lr=self.lr, betas=(0.5, 0.999))
        opt_d = torch.optim.Adam(self.discriminator.parameters(), lr=self.lr, betas=(0.5, 0.999))
        return opt_g, opt_d
