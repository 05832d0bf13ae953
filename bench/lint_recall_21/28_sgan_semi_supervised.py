"""Semi-supervised GAN: the discriminator predicts K real classes plus one 'fake' class."""
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset

NUM_CLASSES = 10
LATENT_DIM = 100
device = torch.device("cuda" if torch.cuda.is_available() else "cpu")


class Generator(nn.Module):
    def __init__(self, img_size=32):
        super().__init__()
        self.init_size = img_size // 4
        self.l1 = nn.Linear(LATENT_DIM, 128 * self.init_size ** 2)
        self.conv_blocks = nn.Sequential(
            nn.BatchNorm2d(128), nn.Upsample(scale_factor=2), nn.Conv2d(128, 64, 3, padding=1), nn.LeakyReLU(0.2),
            nn.Upsample(scale_factor=2), nn.Conv2d(64, 1, 3, padding=1), nn.Tanh(),
        )

    def forward(self, z):
        out = self.l1(z).view(z.size(0), 128, self.init_size, self.init_size)
        return self.conv_blocks(out)


class Discriminator(nn.Module):
    def __init__(self, img_size=32):
        super().__init__()
        self.features = nn.Sequential(
            nn.Conv2d(1, 32, 3, 2, 1), nn.LeakyReLU(0.2), nn.Conv2d(32, 64, 3, 2, 1), nn.BatchNorm2d(64),
            nn.LeakyReLU(0.2), nn.Conv2d(64, 128, 3, 2, 1), nn.BatchNorm2d(128), nn.LeakyReLU(0.2), nn.Flatten(),
        )
        feat = 128 * (img_size // 8) ** 2
        self.adv_layer = nn.Linear(feat, 1)
        self.aux_layer = nn.Sequential(nn.Linear(feat, NUM_CLASSES + 1), nn.Softmax(dim=-1))  # expect: softmax-before-cross-entropy

    def forward(self, img):
        out = self.features(img)
        return self.adv_layer(out), self.aux_layer(out)


def train(loader, epochs=50):
    generator, discriminator = Generator().to(device), Discriminator().to(device)
    adversarial_loss = nn.BCEWithLogitsLoss()
    auxiliary_loss = nn.CrossEntropyLoss()
    opt_G = torch.optim.Adam(generator.parameters(), lr=2e-4, betas=(0.5, 0.999))
    opt_D = torch.optim.Adam(discriminator.parameters(), lr=2e-4, betas=(0.5, 0.999))
    fake_aux_gt = None
    for epoch in range(epochs):
        for imgs, labels in loader:
            imgs, labels = imgs.to(device), labels.to(device)
            n = imgs.size(0)
            valid, fake = torch.ones(n, 1, device=device), torch.zeros(n, 1, device=device)
            fake_aux_gt = torch.full((n,), NUM_CLASSES, dtype=torch.long, device=device)

            opt_G.zero_grad()
            gen_imgs = generator(torch.randn(n, LATENT_DIM, device=device))
            validity, _ = discriminator(gen_imgs)
            g_loss = adversarial_loss(validity, valid)
            g_loss.backward()
            opt_G.step()

            opt_D.zero_grad()
            real_pred, real_aux = discriminator(imgs)
            d_real_loss = (adversarial_loss(real_pred, valid) + auxiliary_loss(real_aux, labels)) / 2
            fake_pred, fake_aux = discriminator(gen_imgs.detach())
            d_fake_loss = (adversarial_loss(fake_pred, fake) + auxiliary_loss(fake_aux, fake_aux_gt)) / 2
            d_loss = (d_real_loss + d_fake_loss) / 2
            d_loss.backward()
            opt_D.step()
        print(f"[Epoch {epoch}] D loss: {d_loss.item():.4f} G loss: {g_loss.item():.4f}")


if __name__ == "__main__":
    data = TensorDataset(torch.rand(640, 1, 32, 32) * 2 - 1, torch.randint(0, NUM_CLASSES, (640,)))
    train(DataLoader(data, batch_size=64, shuffle=True, num_workers=2, pin_memory=True), epochs=1)
