# Source: https://github.com/mrzhu-cool/pix2pix-pytorch/issues/14
# Pitfall: the per-epoch test of the generator runs it in training mode, so batch-norm uses the test batch
#   statistics and dropout stays on; the reported PSNR does not describe the model that is saved.
# Reproduced in our own words, not the original code.
import math

import torch
import torch.nn as nn


class UNetBlock(nn.Module):
    def __init__(self, c):
        super().__init__()
        self.seq = nn.Sequential(nn.Conv2d(c, c, 3, padding=1), nn.BatchNorm2d(c), nn.Dropout(0.5), nn.ReLU())

    def forward(self, x):
        return x + self.seq(x)


class Generator(nn.Module):
    def __init__(self):
        super().__init__()
        self.inp = nn.Conv2d(3, 32, 3, padding=1)
        self.blocks = nn.Sequential(*[UNetBlock(32) for _ in range(4)])
        self.out = nn.Conv2d(32, 3, 3, padding=1)

    def forward(self, x):
        return torch.tanh(self.out(self.blocks(self.inp(x))))


def test_epoch(net_g, testing_loader, device):
    mse = nn.MSELoss()
    avg_psnr, count = 0.0, 0
    with torch.no_grad():
        for real_a, real_b in testing_loader:
            real_a, real_b = real_a.to(device), real_b.to(device)
            prediction = net_g(real_a)  # expect: validation-in-train-mode
            err = mse(prediction, real_b).item()
            avg_psnr += 10 * math.log10(1.0 / max(err, 1e-10))
            count += 1
    return avg_psnr / max(count, 1)
