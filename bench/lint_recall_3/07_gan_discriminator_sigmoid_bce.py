# Source: https://github.com/pytorch/pytorch/issues/751
# Pitfall: The GAN discriminator ends in a sigmoid and is trained with F.binary_cross_entropy; early in
# training the sigmoid saturates and the loss overflows, which is why BCEWithLogits was requested.
# Reproduced in our own words, not the original code.
import torch
import torch.nn as nn
import torch.nn.functional as F


class Critic(nn.Module):
    def __init__(self, img_dim=784):
        super().__init__()
        self.body = nn.Sequential(
            nn.Linear(img_dim, 256), nn.LeakyReLU(0.2), nn.Linear(256, 1)
        )

    def forward(self, x):
        return torch.sigmoid(self.body(x.flatten(1)))


def discriminator_step(disc, gen, real, z_dim, d_opt):
    batch = real.size(0)
    noise = torch.randn(batch, z_dim, device=real.device)
    with torch.no_grad():
        fake = gen(noise)
    d_opt.zero_grad()
    p_real = disc(real)
    p_fake = disc(fake)
    ones = torch.ones_like(p_real)
    zeros = torch.zeros_like(p_fake)
    d_loss = F.binary_cross_entropy(p_real, ones) + F.binary_cross_entropy(p_fake, zeros)  # expect: sigmoid-before-bce
    d_loss.backward()
    d_opt.step()
    return d_loss.item()
