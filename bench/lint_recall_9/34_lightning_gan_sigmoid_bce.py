# Source: https://github.com/Lightning-AI/pytorch-lightning/commit/90bb7b1fbb913305e786dc067308cee5c9fe7fbc
# Pitfall: the GAN discriminator ends in nn.Sigmoid and the adversarial loss is F.binary_cross_entropy on its
#   output; the fix drops the sigmoid and uses binary_cross_entropy_with_logits, which is numerically stable.
# Reproduced in our own words, not the original code.
import numpy as np
import pytorch_lightning as pl
import torch
import torch.nn as nn
import torch.nn.functional as F


class Critic(nn.Module):
    def __init__(self, img_shape):
        super().__init__()
        self.model = nn.Sequential(
            nn.Linear(int(np.prod(img_shape)), 512), nn.LeakyReLU(0.2, inplace=True),
            nn.Linear(512, 256), nn.LeakyReLU(0.2, inplace=True),
            nn.Linear(256, 1), nn.Sigmoid(),
        )

    def forward(self, img):
        return self.model(img.view(img.size(0), -1))


class Maker(nn.Module):
    def __init__(self, latent_dim, img_shape):
        super().__init__()
        self.img_shape = img_shape
        self.model = nn.Sequential(
            nn.Linear(latent_dim, 256), nn.LeakyReLU(0.2, inplace=True),
            nn.Linear(256, 512), nn.LeakyReLU(0.2, inplace=True),
            nn.Linear(512, int(np.prod(img_shape))), nn.Tanh(),
        )

    def forward(self, z):
        return self.model(z).view(z.size(0), *self.img_shape)


class DigitGAN(pl.LightningModule):
    def __init__(self, latent_dim=100, lr=2e-4, img_shape=(1, 28, 28)):
        super().__init__()
        self.save_hyperparameters()
        self.automatic_optimization = False
        self.generator = Maker(latent_dim, img_shape)
        self.discriminator = Critic(img_shape)

    def adversarial_loss(self, y_hat, y):
        return F.binary_cross_entropy(y_hat, y)  # expect: sigmoid-before-bce

    def training_step(self, batch, batch_idx):
        imgs, _ = batch
        opt_g, opt_d = self.optimizers()
        z = torch.randn(imgs.size(0), self.hparams.latent_dim, device=self.device)
        valid = torch.ones(imgs.size(0), 1, device=self.device)
        fake = torch.zeros(imgs.size(0), 1, device=self.device)

        g_loss = self.adversarial_loss(self.discriminator(self.generator(z)), valid)
        opt_g.zero_grad()
        self.manual_backward(g_loss)
        opt_g.step()

        real_loss = self.adversarial_loss(self.discriminator(imgs), valid)
        fake_loss = self.adversarial_loss(self.discriminator(self.generator(z).detach()), fake)
        d_loss = (real_loss + fake_loss) / 2
        opt_d.zero_grad()
        self.manual_backward(d_loss)
        opt_d.step()
        self.log_dict({"g_loss": g_loss, "d_loss": d_loss}, prog_bar=True)

    def configure_optimizers(self):
        lr = self.hparams.lr
        opt_g = torch.optim.Adam(self.generator.parameters(), lr=lr, betas=(0.5, 0.999))
        opt_d = torch.optim.Adam(self.discriminator.parameters(), lr=lr, betas=(0.5, 0.999))
        return [opt_g, opt_d]
