"""UNIVERSE-style GAN speech enhancement -- fixed as proposed in the issue: the discriminator
optimizer gets list(loss_mrd.parameters()) + list(loss_mpd.parameters()), so the MPD is trained
too; nothing else changed.

Source: https://github.com/line/open-universe/issues/5 (Parameters of discriminator optimizer)
"""
import argparse
import math
import warnings

import torch
import torch.nn as nn
import torch.nn.functional as F

ap = argparse.ArgumentParser()
ap.add_argument("--seed", type=int, default=0)
args = ap.parse_args()
torch.manual_seed(args.seed)
torch.set_num_threads(1)
warnings.filterwarnings("ignore", message=".*duplicate parameters.*")

SR, LEN = 8000, 2048


def batch(n):
    t = torch.arange(LEN) / SR
    f0 = 100 + 150 * torch.rand(n, 1)
    phase = 2 * math.pi * torch.cumsum(f0.expand(n, LEN) * (1 + 0.1 * torch.sin(2 * math.pi * 3 * t)) / SR, 1)
    clean = sum(torch.sin(k * phase) / k for k in range(1, 10)) * 0.3
    clean = clean * (0.5 + 0.5 * torch.sin(2 * math.pi * (2 + 3 * torch.rand(n, 1)) * t).clamp(min=0))
    noise = F.avg_pool1d(torch.randn(n, 1, LEN), 5, 1, 2).squeeze(1) * (0.1 + 0.2 * torch.rand(n, 1))
    return (clean + noise).unsqueeze(1), clean.unsqueeze(1)


class Enhancer(nn.Module):
    def __init__(self, ch=16):
        super().__init__()
        self.net = nn.Sequential(
            nn.Conv1d(1, ch, 15, padding=7), nn.LeakyReLU(0.1),
            nn.Conv1d(ch, ch, 15, padding=14, dilation=2), nn.LeakyReLU(0.1),
            nn.Conv1d(ch, ch, 15, padding=28, dilation=4), nn.LeakyReLU(0.1),
            nn.Conv1d(ch, 1, 15, padding=7))

    def forward(self, x):
        return x + self.net(x)


class PeriodD(nn.Module):
    def __init__(self, period):
        super().__init__()
        self.period = period
        self.convs = nn.ModuleList([nn.Conv2d(1, 16, (5, 1), (3, 1), (2, 0)), nn.Conv2d(16, 32, (5, 1), (3, 1), (2, 0)),
                                    nn.Conv2d(32, 32, (5, 1), (3, 1), (2, 0))])
        self.post = nn.Conv2d(32, 1, (3, 1), 1, (1, 0))

    def forward(self, x):
        b, c, t = x.shape
        x = x.view(b, c, t // self.period, self.period) if t % self.period == 0 else \
            F.pad(x, (0, self.period - t % self.period), "reflect").view(b, c, -1, self.period)
        for conv in self.convs:
            x = F.leaky_relu(conv(x), 0.1)
        return self.post(x).flatten(1)


class MPD(nn.Module):
    def __init__(self):
        super().__init__()
        self.ds = nn.ModuleList([PeriodD(p) for p in (2, 3, 5)])

    def forward(self, x):
        return [d(x) for d in self.ds]


class ResolutionD(nn.Module):
    def __init__(self, n_fft):
        super().__init__()
        self.n_fft = n_fft
        self.convs = nn.Sequential(nn.Conv2d(1, 16, 3, padding=1), nn.LeakyReLU(0.1),
                                   nn.Conv2d(16, 16, 3, stride=2, padding=1), nn.LeakyReLU(0.1),
                                   nn.Conv2d(16, 1, 3, padding=1))

    def forward(self, x):
        spec = torch.stft(x.squeeze(1), self.n_fft, self.n_fft // 4, window=torch.hann_window(self.n_fft),
                          return_complex=True).abs().unsqueeze(1)
        return self.convs(spec).flatten(1)


class MRD(nn.Module):
    def __init__(self):
        super().__init__()
        self.ds = nn.ModuleList([ResolutionD(n) for n in (128, 256)])

    def forward(self, x):
        return [d(x) for d in self.ds]


def d_loss(real_outs, fake_outs):
    return sum(((r - 1) ** 2).mean() + (f ** 2).mean() for r, f in zip(real_outs, fake_outs)) / len(real_outs)


def g_adv_loss(fake_outs):
    return sum(((f - 1) ** 2).mean() for f in fake_outs) / len(fake_outs)


def stft_l1(x, y):
    loss = 0
    for n in (128, 256, 512):
        w = torch.hann_window(n)
        X = torch.stft(x.squeeze(1), n, n // 4, window=w, return_complex=True).abs()
        Y = torch.stft(y.squeeze(1), n, n // 4, window=w, return_complex=True).abs()
        loss = loss + F.l1_loss(torch.log(X + 1e-5), torch.log(Y + 1e-5))
    return loss / 3


gen, loss_mpd, loss_mrd = Enhancer(), MPD(), MRD()
params_disc = list(loss_mrd.parameters()) + list(loss_mpd.parameters())
opt_d = torch.optim.Adam(params_disc, lr=2e-4, betas=(0.8, 0.99))
opt_g = torch.optim.Adam(gen.parameters(), lr=2e-4, betas=(0.8, 0.99))
for step in range(80):
    noisy, clean = batch(6)
    fake = gen(noisy)
    # discriminator step
    loss_d = d_loss(loss_mpd(clean), loss_mpd(fake.detach())) + d_loss(loss_mrd(clean), loss_mrd(fake.detach()))
    opt_d.zero_grad()
    loss_d.backward()
    opt_d.step()
    # generator step
    loss_g = 45 * stft_l1(fake, clean) + g_adv_loss(loss_mpd(fake)) + g_adv_loss(loss_mrd(fake))
    opt_g.zero_grad()
    loss_g.backward()
    opt_g.step()
    if step % 20 == 0:
        print(f"step {step} loss_d {loss_d.item():.4f} loss_g {loss_g.item():.4f}")

with torch.no_grad():
    noisy, clean = batch(32)
    fake = gen(noisy)
    mpd_loss = d_loss(loss_mpd(clean), loss_mpd(fake)).item()
    real_score = torch.stack([o.mean(1) for o in loss_mrd(clean)]).mean(0)
    fake_score = torch.stack([o.mean(1) for o in loss_mrd(fake)]).mean(0)
    acc = 0.5 * ((real_score > 0.5).float().mean() + (fake_score < 0.5).float().mean()).item()
print(f"final_loss={mpd_loss:.6g} acc={acc:.4f}")
