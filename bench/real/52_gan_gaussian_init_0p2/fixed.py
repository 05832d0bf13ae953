"""Fixed version of /buggy.py (the source and the report are in its docstring).

Fix: initialise with N(0, 0.02), the original value.
"""
import argparse

import torch
import torch.nn as nn

ap = argparse.ArgumentParser()
ap.add_argument("--seed", type=int, default=0)
args = ap.parse_args()
torch.manual_seed(args.seed)


def gaussian_weights_init(m):
    classname = m.__class__.__name__
    if classname.find("Conv") != -1 and classname.find("Conv") == 0:
        m.weight.data.normal_(0.0, 0.02)


def conv(i, o, s=1):
    return nn.Sequential(nn.Conv2d(i, o, 3, s, 1), nn.LeakyReLU(0.2, inplace=True))


class E_content(nn.Module):
    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(conv(3, 16), conv(16, 32, 2), conv(32, 32), conv(32, 32))

    def forward(self, x):
        return self.net(x)


class E_attr(nn.Module):
    def __init__(self, nz=8):
        super().__init__()
        self.net = nn.Sequential(conv(3, 64), conv(64, 128, 2), conv(128, 128), conv(128, 128, 2), nn.AdaptiveAvgPool2d(1))
        self.mu = nn.Conv2d(128, nz, 1)
        self.logvar = nn.Conv2d(128, nz, 1)

    def forward(self, x):
        h = self.net(x)
        return self.mu(h).flatten(1), self.logvar(h).flatten(1)


class Generator(nn.Module):
    def __init__(self, nz=8):
        super().__init__()
        self.up = nn.Sequential(conv(32 + nz, 32), nn.Upsample(scale_factor=2), conv(32, 16))
        self.out = nn.Sequential(nn.Conv2d(16, 3, 3, 1, 1), nn.Tanh())

    def forward(self, c, z):
        z = z[:, :, None, None].expand(-1, -1, c.shape[2], c.shape[3])
        return self.out(self.up(torch.cat([c, z], 1)))


# "stain" images: tissue-like texture x a per-image colour (the attribute)
def batch(n, s=12):
    tex = torch.rand(n, 1, s, s).round()
    tex = nn.functional.avg_pool2d(tex, 3, 1, 1)
    colour = torch.rand(n, 3, 1, 1)
    return (tex * colour) * 2 - 1


enc_c, enc_a, gen = E_content(), E_attr(), Generator()
for net in (enc_c, enc_a, gen):
    net.apply(gaussian_weights_init)
params = list(enc_c.parameters()) + list(enc_a.parameters()) + list(gen.parameters())
opt = torch.optim.Adam(params, lr=1e-4, betas=(0.5, 0.999), weight_decay=1e-4)
losses = []
for it in range(100):
    x = batch(8)
    mu, logvar = enc_a(x)
    std = torch.exp(logvar.mul(0.5))
    z = mu + std * torch.randn_like(std)
    rec = gen(enc_c(x), z)
    loss_rec = (rec - x).abs().mean() * 10
    loss_kl = 0.01 * (mu.pow(2) + logvar.exp() - 1 - logvar).sum(1).mean() * 0.5
    loss = loss_rec + loss_kl
    opt.zero_grad()
    loss.backward()
    opt.step()
    losses.append(loss.item())
print(f"final_loss={sum(losses[-10:]) / 10:.6g} acc={0.0:.4f}")
