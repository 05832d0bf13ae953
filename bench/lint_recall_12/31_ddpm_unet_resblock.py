"""DDPM U-Net residual block and a bare-bones training step."""
import math
import torch
import torch.nn as nn
import torch.nn.functional as F


class Swish(nn.Module):
    def forward(self, x):
        return x * torch.sigmoid(x)


class ResidualBlock(nn.Module):
    def __init__(self, in_channels, out_channels, time_channels, n_groups=32, dropout_rate=0.1):
        super().__init__()
        self.norm1 = nn.GroupNorm(n_groups, in_channels)
        self.act1 = Swish()
        self.conv1 = nn.Conv2d(in_channels, out_channels, 3, padding=1)
        self.norm2 = nn.GroupNorm(n_groups, out_channels)
        self.act2 = Swish()
        self.conv2 = nn.Conv2d(out_channels, out_channels, 3, padding=1)
        self.shortcut = nn.Conv2d(in_channels, out_channels, 1) if in_channels != out_channels else nn.Identity()
        self.time_emb = nn.Linear(time_channels, out_channels)
        self.dropout_rate = dropout_rate

    def forward(self, x, t):
        h = self.conv1(self.act1(self.norm1(x)))
        h = h + self.time_emb(t)[:, :, None, None]
        h = self.conv2(F.dropout(self.act2(self.norm2(h)), self.dropout_rate))  # expect: functional-dropout-always-on
        return h + self.shortcut(x)


def timestep_embedding(t, dim):
    half = dim // 2
    freqs = torch.exp(-math.log(10000) * torch.arange(half, device=t.device) / half)
    args = t[:, None].float() * freqs[None]
    return torch.cat([args.sin(), args.cos()], dim=-1)


def ddpm_loss(eps_model, x0, sqrt_alpha_bar, sqrt_one_minus_alpha_bar, n_steps=1000):
    t = torch.randint(0, n_steps, (x0.size(0),), device=x0.device)
    noise = torch.randn_like(x0)
    xt = sqrt_alpha_bar[t].view(-1, 1, 1, 1) * x0 + sqrt_one_minus_alpha_bar[t].view(-1, 1, 1, 1) * noise
    return F.mse_loss(eps_model(xt, t), noise)
