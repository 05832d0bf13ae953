"""InfoGAN on 32x32 digits: categorical + continuous latent codes with an auxiliary Q head."""
import numpy as np
import torch
import torch.nn as nn

LATENT, N_CLASSES, CODE_DIM, IMG = 62, 10, 2, 32
Tensor = torch.FloatTensor


def to_categorical(y, num_columns):
    y_cat = np.zeros((y.shape[0], num_columns))
    y_cat[range(y.shape[0]), y] = 1.0
    return torch.from_numpy(y_cat).float()


class Generator(nn.Module):
    def __init__(self):
        super().__init__()
        self.l1 = nn.Sequential(nn.Linear(LATENT + N_CLASSES + CODE_DIM, 128 * 8 * 8))
        self.conv = nn.Sequential(
            nn.BatchNorm2d(128), nn.Upsample(scale_factor=2), nn.Conv2d(128, 64, 3, padding=1),
            nn.BatchNorm2d(64), nn.LeakyReLU(0.2), nn.Upsample(scale_factor=2),
            nn.Conv2d(64, 1, 3, padding=1), nn.Tanh(),
        )

    def forward(self, noise, labels, code):
        out = self.l1(torch.cat((noise, labels, code), -1))
        return self.conv(out.view(out.size(0), 128, 8, 8))


class Discriminator(nn.Module):
    def __init__(self):
        super().__init__()
        self.body = nn.Sequential(
            nn.Conv2d(1, 64, 3, 2, 1), nn.LeakyReLU(0.2), nn.Conv2d(64, 128, 3, 2, 1), nn.LeakyReLU(0.2),
            nn.Flatten(),
        )
        self.adv_layer = nn.Linear(128 * 8 * 8, 1)
        self.aux_layer = nn.Sequential(nn.Linear(128 * 8 * 8, N_CLASSES), nn.Softmax(dim=1))
        self.latent_layer = nn.Linear(128 * 8 * 8, CODE_DIM)

    def forward(self, img):
        h = self.body(img)
        return self.adv_layer(h), self.aux_layer(h), self.latent_layer(h)


def train(batches, epochs=5, lambda_cat=1.0, lambda_con=0.1):
    generator, discriminator = Generator(), Discriminator()
    adversarial_loss = nn.BCEWithLogitsLoss()
    categorical_loss = nn.CrossEntropyLoss()
    continuous_loss = nn.MSELoss()
    opt_g = torch.optim.Adam(generator.parameters(), lr=2e-4, betas=(0.5, 0.999))
    opt_d = torch.optim.Adam(discriminator.parameters(), lr=2e-4, betas=(0.5, 0.999))
    opt_info = torch.optim.Adam(list(generator.parameters()) + list(discriminator.parameters()), lr=2e-4)
    for epoch in range(epochs):
        for imgs in batches:
            bs = imgs.size(0)
            valid, fake = torch.ones(bs, 1), torch.zeros(bs, 1)
            z = torch.randn(bs, LATENT)
            label_input = to_categorical(np.random.randint(0, N_CLASSES, bs), N_CLASSES)
            code_input = torch.empty(bs, CODE_DIM).uniform_(-1, 1)

            opt_g.zero_grad()
            gen_imgs = generator(z, label_input, code_input)
            g_loss = adversarial_loss(discriminator(gen_imgs)[0], valid)
            g_loss.backward()
            opt_g.step()

            opt_d.zero_grad()
            d_loss = 0.5 * (adversarial_loss(discriminator(imgs)[0], valid)
                            + adversarial_loss(discriminator(gen_imgs.detach())[0], fake))
            d_loss.backward()
            opt_d.step()

            opt_info.zero_grad()
            sampled_labels = torch.from_numpy(np.random.randint(0, N_CLASSES, bs)).long()
            code_input = torch.empty(bs, CODE_DIM).uniform_(-1, 1)
            gen_imgs = generator(torch.randn(bs, LATENT), to_categorical(sampled_labels.numpy(), N_CLASSES), code_input)
            _, pred_label, pred_code = discriminator(gen_imgs)
            info_loss = lambda_cat * categorical_loss(pred_label, sampled_labels) + lambda_con * continuous_loss(pred_code, code_input)  # expect: softmax-before-cross-entropy
            info_loss.backward()
            opt_info.step()
        print(f"epoch {epoch}: D {d_loss.item():.3f} G {g_loss.item():.3f} info {info_loss.item():.3f}")


if __name__ == "__main__":
    train([torch.randn(16, 1, IMG, IMG) for _ in range(4)])
