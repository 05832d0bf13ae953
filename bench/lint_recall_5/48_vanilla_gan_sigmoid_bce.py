# Source: https://github.com/diegoalejogm/gans/pull/8
# Pitfall: the vanilla GAN's discriminator ends in nn.Sigmoid and is trained with nn.BCELoss on those
#          probabilities; saturated outputs make the loss unstable, which the PR replaces with a logits-based BCE.
# Reproduced in our own words, not the original code.
import torch
from torch import nn


class Discriminator(nn.Module):
    def __init__(self, n_features=784):
        super().__init__()
        self.hidden0 = nn.Sequential(nn.Linear(n_features, 1024), nn.LeakyReLU(0.2), nn.Dropout(0.3))
        self.hidden1 = nn.Sequential(nn.Linear(1024, 256), nn.LeakyReLU(0.2), nn.Dropout(0.3))
        self.out = nn.Sequential(nn.Linear(256, 1), nn.Sigmoid())

    def forward(self, x):
        return self.out(self.hidden1(self.hidden0(x)))


class Generator(nn.Module):
    def __init__(self, n_noise=100, n_out=784):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(n_noise, 256), nn.LeakyReLU(0.2), nn.Linear(256, 1024), nn.LeakyReLU(0.2),
                                 nn.Linear(1024, n_out), nn.Tanh())

    def forward(self, z):
        return self.net(z)


discriminator, generator = Discriminator(), Generator()
d_optimizer = torch.optim.Adam(discriminator.parameters(), lr=2e-4)
g_optimizer = torch.optim.Adam(generator.parameters(), lr=2e-4)
loss = nn.BCELoss()


def bce_on_discriminator(samples, target_value):
    prediction = discriminator(samples)
    target = torch.full((samples.size(0), 1), target_value)
    return loss(prediction, target)  # expect: sigmoid-before-bce


def train_discriminator(real_data, fake_data):
    d_optimizer.zero_grad()
    error = bce_on_discriminator(real_data, 1.0) + bce_on_discriminator(fake_data, 0.0)
    error.backward()
    d_optimizer.step()
    return error.item()


def train_generator(fake_data):
    g_optimizer.zero_grad()
    error = bce_on_discriminator(fake_data, 1.0)
    error.backward()
    g_optimizer.step()
    return error.item()


if __name__ == "__main__":
    for step in range(20):
        real = torch.rand(64, 784) * 2 - 1
        fake = generator(torch.randn(64, 100))
        d_err = train_discriminator(real, fake.detach())
        g_err = train_generator(generator(torch.randn(64, 100)))
        print(step, d_err, g_err)
