"""Auxiliary-classifier GAN (AC-GAN) on 32x32 images."""
import argparse

import numpy as np
import torch
import torch.nn as nn

parser = argparse.ArgumentParser()
parser.add_argument("--n_epochs", type=int, default=200)
parser.add_argument("--batch_size", type=int, default=64)
parser.add_argument("--lr", type=float, default=0.0002)
parser.add_argument("--latent_dim", type=int, default=100)
parser.add_argument("--n_classes", type=int, default=10)
parser.add_argument("--img_size", type=int, default=32)
parser.add_argument("--channels", type=int, default=1)
opt = parser.parse_args()
device = torch.device("cuda" if torch.cuda.is_available() else "cpu")


class Generator(nn.Module):
    def __init__(self):
        super().__init__()
        self.label_emb = nn.Embedding(opt.n_classes, opt.latent_dim)
        self.init_size = opt.img_size // 4
        self.l1 = nn.Linear(opt.latent_dim, 128 * self.init_size ** 2)
        self.conv_blocks = nn.Sequential(
            nn.BatchNorm2d(128), nn.Upsample(scale_factor=2), nn.Conv2d(128, 128, 3, padding=1),
            nn.BatchNorm2d(128), nn.LeakyReLU(0.2), nn.Upsample(scale_factor=2), nn.Conv2d(128, 64, 3, padding=1),
            nn.BatchNorm2d(64), nn.LeakyReLU(0.2), nn.Conv2d(64, opt.channels, 3, padding=1), nn.Tanh(),
        )

    def forward(self, noise, labels):
        out = self.l1(torch.mul(self.label_emb(labels), noise))
        return self.conv_blocks(out.view(out.shape[0], 128, self.init_size, self.init_size))


class Discriminator(nn.Module):
    def __init__(self):
        super().__init__()

        def block(in_f, out_f, bn=True):
            layers = [nn.Conv2d(in_f, out_f, 3, 2, 1), nn.LeakyReLU(0.2), nn.Dropout2d(0.25)]
            if bn:
                layers.append(nn.BatchNorm2d(out_f, 0.8))
            return layers

        self.conv_blocks = nn.Sequential(*block(opt.channels, 16, bn=False), *block(16, 32), *block(32, 64),
                                         *block(64, 128))
        ds_size = opt.img_size // 2 ** 4
        self.adv_layer = nn.Linear(128 * ds_size ** 2, 1)
        self.aux_layer = nn.Sequential(nn.Linear(128 * ds_size ** 2, opt.n_classes), nn.Softmax(dim=1))  # expect: softmax-before-cross-entropy

    def forward(self, img):
        out = self.conv_blocks(img).flatten(1)
        return self.adv_layer(out), self.aux_layer(out)


adversarial_loss = nn.BCEWithLogitsLoss()
auxiliary_loss = nn.CrossEntropyLoss()
generator, discriminator = Generator().to(device), Discriminator().to(device)
optimizer_G = torch.optim.Adam(generator.parameters(), lr=opt.lr, betas=(0.5, 0.999))
optimizer_D = torch.optim.Adam(discriminator.parameters(), lr=opt.lr, betas=(0.5, 0.999))


def train_step(imgs, labels):
    batch_size = imgs.shape[0]
    valid = torch.ones(batch_size, 1, device=device)
    fake = torch.zeros(batch_size, 1, device=device)
    real_imgs, labels = imgs.to(device), labels.to(device)

    optimizer_G.zero_grad()
    z = torch.randn(batch_size, opt.latent_dim, device=device)
    gen_labels = torch.from_numpy(np.random.randint(0, opt.n_classes, batch_size)).to(device)
    gen_imgs = generator(z, gen_labels)
    validity, pred_label = discriminator(gen_imgs)
    g_loss = 0.5 * (adversarial_loss(validity, valid) + auxiliary_loss(pred_label, gen_labels))
    g_loss.backward()
    optimizer_G.step()

    optimizer_D.zero_grad()
    real_pred, real_aux = discriminator(real_imgs)
    d_real_loss = (adversarial_loss(real_pred, valid) + auxiliary_loss(real_aux, labels)) / 2
    fake_pred, fake_aux = discriminator(gen_imgs.detach())
    d_fake_loss = (adversarial_loss(fake_pred, fake) + auxiliary_loss(fake_aux, gen_labels)) / 2
    d_loss = (d_real_loss + d_fake_loss) / 2
    d_loss.backward()
    optimizer_D.step()
    return d_loss.item(), g_loss.item()


if __name__ == "__main__":
    for epoch in range(opt.n_epochs):
        for _ in range(100):
            print(train_step(torch.rand(opt.batch_size, 1, 32, 32) * 2 - 1, torch.randint(0, 10, (opt.batch_size,))))
