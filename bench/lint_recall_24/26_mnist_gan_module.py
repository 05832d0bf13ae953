"""Two-optimizer GAN written as a LightningModule with manual optimization."""
import torch
import torch.nn as nn
import torch.nn.functional as F
import lightning.pytorch as pl


class Generator(nn.Module):
    def __init__(self, latent_dim, img_shape=(1, 28, 28)):
        super().__init__()
        self.img_shape = img_shape
        self.net = nn.Sequential(nn.Linear(latent_dim, 256), nn.LeakyReLU(0.2), nn.Linear(256, 784), nn.Tanh())

    def forward(self, z):
        return self.net(z).view(z.size(0), *self.img_shape)


class Discriminator(nn.Module):
    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(nn.Flatten(), nn.Linear(784, 256), nn.LeakyReLU(0.2), nn.Linear(256, 1))

    def forward(self, img):
        return self.net(img)


class GAN(pl.LightningModule):
    def __init__(self, latent_dim=100, lr=2e-4):
        super().__init__()
        self.automatic_optimization = False
        self.latent_dim, self.lr = latent_dim, lr
        self.generator = Generator(latent_dim)
        self.discriminator = Discriminator()

    def training_step(self, batch, batch_idx):
        imgs, _ = batch
        opt_g, opt_d = self.optimizers()
        z = torch.randn(imgs.size(0), self.latent_dim, device=self.device)
        fake = self.generator(z)

        opt_g.zero_grad()
        pred = self.discriminator(fake)
        g_loss = F.binary_cross_entropy_with_logits(pred, torch.ones_like(pred))
        self.manual_backward(g_loss)
        opt_g.step()

        real_pred = self.discriminator(imgs)
        fake_pred = self.discriminator(fake.detach())
        d_loss = 0.5 * (F.binary_cross_entropy_with_logits(real_pred, torch.ones_like(real_pred))
                        + F.binary_cross_entropy_with_logits(fake_pred, torch.zeros_like(fake_pred)))
        self.manual_backward(d_loss)
        opt_d.step()  # expect: gradients-never-cleared
        self.log_dict({"g_loss": g_loss, "d_loss": d_loss}, prog_bar=True)

    def configure_optimizers(self):
        opt_g = torch.optim.Adam(self.generator.parameters(), lr=self.lr, betas=(0.5, 0.999))
        opt_d = torch.optim.Adam(self.discriminator.parameters(), lr=self.lr, betas=(0.5, 0.999))
        return [opt_g, opt_d]
