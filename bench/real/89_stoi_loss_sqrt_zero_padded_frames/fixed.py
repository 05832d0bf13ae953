"""Speech-enhancement mask network with a differentiable STOI loss -- fixed as in the report: +EPS
inside the square roots of the third-octave band envelopes (lines 127-128), nothing else.

Source: https://github.com/mpariente/pytorch_stoi/issues/7 (NaN when back-propagation)
Report: "I met an issue when using the torch_stoi in the training. The gradients will become
NaN sometimes, and I fixed this by adding an +EPS in line 127 and line 128. I think the sqrt of
0 might lead to a NaN problem." Maintainer: "Thanks for reporting this, can you make a PR
please?" (merged, "Well done"). Lines 127-128 computed the one-third-octave band envelopes
x_tob = sqrt(OBM @ |X|^2) and y_tob = sqrt(OBM @ |Y|^2). Reproduced with the STOI pipeline on
STFT magnitudes (256-point frames, hop 128, 15 third-octave bands from 150 Hz at 10 kHz,
30-frame segments, normalisation and clipping at beta = -15 dB, mean/variance-normalised
correlation; no silent-frame removal), a frame-wise mask network (log power -> 256 ReLU -> 129
sigmoid) applied to the noisy magnitude, Adam 1e-3, batches of 8 utterances of different
lengths zero-padded to the longest -- the padded frames are exactly silent in the clean, noisy
and enhanced signals.

expect: unstable-op
symptom: nonfinite
batch: 4
"""
import argparse
import math

import torch
import torch.nn as nn

ap = argparse.ArgumentParser()
ap.add_argument("--seed", type=int, default=0)
args = ap.parse_args()
torch.manual_seed(args.seed)
torch.set_num_threads(1)

FS, NFFT, HOP, N_SEG, BETA = 10000, 256, 128, 30, -15.0
EPS = 1e-8


def thirdoct(fs, nfft, num_bands, min_freq):
    f = torch.linspace(0, fs, nfft + 1)[: nfft // 2 + 1]
    k = torch.arange(num_bands, dtype=torch.float32)
    cf = 2 ** (k / 3) * min_freq
    fl = torch.sqrt((2 ** (k / 3) * min_freq) * 2 ** ((k - 1) / 3) * min_freq)
    fr = torch.sqrt((2 ** (k / 3) * min_freq) * 2 ** ((k + 1) / 3) * min_freq)
    obm = torch.zeros(num_bands, len(f))
    for i in range(num_bands):
        lo = torch.argmin((f - fl[i]).abs())
        hi = torch.argmin((f - fr[i]).abs())
        obm[i, lo:hi] = 1
    return obm


OBM = thirdoct(FS, NFFT, 15, 150)


def utterance(n):
    t = torch.arange(n) / FS
    f0 = 110 + 60 * torch.rand(())
    syll = (torch.sin(2 * math.pi * (3 + 2 * torch.rand(())) * t) > 0).float()  # syllable on/off
    env = torch.nn.functional.avg_pool1d(syll[None, None], 201, 1, 100)[0, 0]
    voice = sum(torch.sin(2 * math.pi * f0 * h * t + 6 * torch.rand(())) / h for h in range(1, 12))
    return env * voice * 0.3


def make_batch(b):
    lens = torch.randint(6000, 10000, (b,))
    clean, noisy = torch.zeros(b, 10000), torch.zeros(b, 10000)
    for i, n in enumerate(lens.tolist()):
        s = utterance(n)
        clean[i, :n] = s
        noisy[i, :n] = s + 0.15 * torch.randn(n)  # mixture made, then zero-padded
    return clean, noisy


def spec(x):
    return torch.stft(x, NFFT, HOP, window=torch.hann_window(NFFT), return_complex=True).abs()


def stoi_loss(clean_mag, est_mag):
    x_tob = torch.sqrt(torch.matmul(OBM, clean_mag.pow(2)) + EPS)
    y_tob = torch.sqrt(torch.matmul(OBM, est_mag.pow(2)) + EPS)
    x_seg = x_tob.unfold(2, N_SEG, 1)   # [b, bands, n_segments, N_SEG]
    y_seg = y_tob.unfold(2, N_SEG, 1)
    norm_const = x_seg.norm(dim=3, keepdim=True) / (y_seg.norm(dim=3, keepdim=True) + EPS)
    y_prim = torch.min(y_seg * norm_const, x_seg * (1 + 10 ** (-BETA / 20)))
    y_prim = y_prim - y_prim.mean(3, keepdim=True)
    x_seg = x_seg - x_seg.mean(3, keepdim=True)
    y_prim = y_prim / (y_prim.norm(dim=3, keepdim=True) + EPS)
    x_seg = x_seg / (x_seg.norm(dim=3, keepdim=True) + EPS)
    corr = (y_prim * x_seg).sum(3).mean(1)  # mean over bands -> [b, n_segments]
    return 1 - corr.mean()


class MaskNet(nn.Module):
    def __init__(self, bins=NFFT // 2 + 1):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(bins, 256), nn.ReLU(), nn.Linear(256, bins), nn.Sigmoid())

    def forward(self, noisy_mag):
        feats = torch.log(noisy_mag.pow(2) + 1e-8).transpose(1, 2)
        return self.net(feats).transpose(1, 2) * noisy_mag


model = MaskNet()
optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
losses = []
for step in range(150):
    clean, noisy = make_batch(8)
    clean_mag, noisy_mag = spec(clean), spec(noisy)
    loss = stoi_loss(clean_mag, model(noisy_mag))
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    losses.append(loss.item())
    if step % 30 == 0:
        print(f"step {step} loss (1 - STOI) {loss.item():.4f}")

print(f"final_loss={sum(losses[-10:]) / 10:.6g} acc={1 - sum(losses[-10:]) / 10:.4f}")
