"""Auxiliary-classifier GAN (ACGAN) written as a LightningModule."""
import torch
import torch.nn as nn
import torch.nn.functional as F
import lightning.pytorch as pl


class Generator(nn.Module):
    def __init__(self, latent_dim, n_classes, img_shape):
        super().__init__()
        self.img_shape = img_shape
        self.label_emb = nn.Embedding(n_classes, latent_dim)
        self.net = nn.Sequential(
            nn.Linear(latent_dim, 256), nn.LeakyReLU(0.2),
            nn.Linear(256, 512), nn.BatchNorm1d(512), nn.LeakyReLU(0.2),
            nn.Linear(512, int(torch.tensor(img_shape).prod())), nn.Tanh(),
        )

    def forward(self, z, labels):
        return self.net(self.label_emb(labels) * z).view(z.size(0), *self.img_shape)


class Discriminator(nn.Module):
    def __init__(self, n_classes, img_shape):
        super().__init__()
        in_dim = int(torch.tensor(img_shape).prod())
        self.body = nn.Sequential(nn.Linear(in_dim, 512), nn.LeakyReLU(0.2), nn.Dropout(0.3))
        self.adv_layer = nn.Linear(512, 1)
        self.aux_layer = nn.Sequential(nn.Linear(512, n_classes), nn.Softmax(dim=1))

    def forward(self, img):
        h = self.body(img.view(img.size(0), -1))
        return self.adv_layer(h), self.aux_layer(h)


class ACGAN(pl.LightningModule):
    def __init__(self, latent_dim=100, n_classes=10, img_shape=(1, 28, 28), lr=2e-4):
        super().__init__()
        self.save_hyperparameters()
        self.automatic_optimization = False
        self.generator = Generator(latent_dim, n_classes, img_shape)
        self.discriminator = Discriminator(n_classes, img_shape)

    def adversarial_loss(self, logits, target):
        return F.binary_cross_entropy_with_logits(logits, target)

    def auxiliary_loss(self, class_scores, labels):
        return F.cross_entropy(class_scores, labels)  # expect: softmax-before-cross-entropy

    def training_step(self, batch, batch_idx):
        imgs, labels = batch
        opt_g, opt_d = self.optimizers()
        bsz = imgs.size(0)
        valid = torch.ones(bsz, 1, device=self.device)
        fake = torch.zeros(bsz, 1, device=self.device)

        z = torch.randn(bsz, self.hparams.latent_dim, device=self.device)
        gen_labels = torch.randint(0, self.hparams.n_classes, (bsz,), device=self.device)
        gen_imgs = self.generator(z, gen_labels)
        adv, aux = self.discriminator(gen_imgs)
        g_loss = 0.5 * (self.adversarial_loss(adv, valid) + self.auxiliary_loss(aux, gen_labels))
        opt_g.zero_grad()
        self.manual_backward(g_loss)
        opt_g.step()

        real_adv, real_aux = self.discriminator(imgs)
        fake_adv, fake_aux = self.discriminator(gen_imgs.detach())
        d_real = 0.5 * (self.adversarial_loss(real_adv, valid) + self.auxiliary_loss(real_aux, labels))
        d_fake = 0.5 * (self.adversarial_loss(fake_adv, fake) + self.auxiliary_loss(fake_aux, gen_labels))
        d_loss = 0.5 * (d_real + d_fake)
        opt_d.zero_grad()
        self.manual_backward(d_loss)
        opt_d.step()
        self.log_dict({"g_loss": g_loss, "d_loss": d_loss}, prog_bar=True)

    def configure_optimizers(self):
        lr = self.hparams.lr
        return (
            torch.optim.Adam(self.generator.parameters(), lr=lr, betas=(0.5, 0.999)),
            torch.optim.Adam(self.discriminator.parameters(), lr=lr, betas=(0.5, 0.999)),
        )
