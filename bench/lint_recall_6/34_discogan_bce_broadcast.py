# Source: https://github.com/carpedm20/DiscoGAN-pytorch/issues/16
# Pitfall: the discriminator outputs (B, 1) scores but the real/fake label tensors are (B,); the BCE loss broadcasts
#   them against each other (PyTorch warns about the size mismatch) and the adversarial losses are wrong.
# Reproduced in our own words, not the original code.
import torch
import torch.nn as nn


class Discriminator(nn.Module):
    def __init__(self, ch=3):
        super().__init__()
        self.net = nn.Sequential(
            nn.Conv2d(ch, 64, 4, 2, 1), nn.LeakyReLU(0.2),
            nn.Conv2d(64, 128, 4, 2, 1), nn.BatchNorm2d(128), nn.LeakyReLU(0.2),
            nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Linear(128, 1),
        )

    def forward(self, x):
        return self.net(x)


def discriminator_step(D_A, optim_d, x_A, x_BA, batch_size):
    bce = nn.BCEWithLogitsLoss()
    real_tensor = torch.ones(batch_size)
    fake_tensor = torch.zeros(batch_size)
    optim_d.zero_grad()
    l_d_real = bce(D_A(x_A), real_tensor)  # expect: loss-shape-broadcast
    l_d_fake = bce(D_A(x_BA.detach()).squeeze(1), fake_tensor)
    l_d = l_d_real + l_d_fake
    l_d.backward()
    optim_d.step()
    return l_d.item()
