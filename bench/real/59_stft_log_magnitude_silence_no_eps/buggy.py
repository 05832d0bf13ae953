"""Waveform denoiser trained with a log-STFT-magnitude loss without an epsilon inside the log.

Source: https://github.com/csteinmetz1/auraloss/issues/63 (Nan Issue with STFTMagnitudeLoss)
Report: "I found that the additional epsilon term is missing in auraloss/freq.py line 47-48
(torch.log). This part sometimes causes nan gradient. I modified the code by my own in my
environment". The log-magnitude term of the multi-resolution STFT loss takes torch.log of the
magnitude spectrogram as is; a clip that contains digital silence (here: zero padding at the end
of short utterances, as a data loader pads variable-length clips) has exactly-zero STFT bins,
and log(0) = -inf makes the loss non-finite. Reproduced with a small 1-D conv denoiser on
synthetic harmonic "speech" plus white noise, 8 kHz, 0.25 s clips, a third of them padded.

expect: unstable-op
symptom: nonfinite
batch: 3
"""
import argparse

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

parser = argparse.ArgumentParser()
parser.add_argument("--seed", type=int, default=0)
parser.add_argument("--epochs", type=int, default=8)
args = parser.parse_args()
torch.manual_seed(args.seed)
np.random.seed(args.seed)
torch.set_num_threads(1)

SR, LEN = 8000, 2000


def make_clip():
    t = np.arange(LEN) / SR
    f0 = np.random.uniform(100, 250)
    clean = sum(np.random.uniform(0.1, 0.5) / k * np.sin(2 * np.pi * k * f0 * t + np.random.rand() * 6)
                for k in range(1, 6))
    clean *= 0.5 * (1 + np.sin(2 * np.pi * np.random.uniform(1, 4) * t))  # syllable envelope
    if np.random.rand() < 0.33:  # short utterance, zero-padded to LEN
        n = np.random.randint(LEN // 2, LEN - 400)
        clean[n:] = 0.0
    noisy = clean + 0.05 * np.random.randn(LEN)
    if np.any(clean == 0.0):
        noisy[clean == 0.0] = 0.0  # padding is padding in both
    return noisy.astype(np.float32), clean.astype(np.float32)


pairs = [make_clip() for _ in range(192)]
noisy_all = torch.tensor(np.stack([p[0] for p in pairs]))
clean_all = torch.tensor(np.stack([p[1] for p in pairs]))


class Denoiser(nn.Module):
    def __init__(self, ch=16):
        super().__init__()
        self.net = nn.Sequential(
            nn.Conv1d(1, ch, 15, padding=7), nn.PReLU(),
            nn.Conv1d(ch, ch, 15, padding=7), nn.PReLU(),
            nn.Conv1d(ch, ch, 15, padding=7), nn.PReLU(),
            nn.Conv1d(ch, 1, 15, padding=7),
        )

    def forward(self, x):
        return x + self.net(x.unsqueeze(1)).squeeze(1)


class STFTMagnitudeLoss(nn.Module):
    """Spectral convergence + log-magnitude L1, as in auraloss.freq.STFTLoss."""

    def __init__(self, n_fft=256, hop=64):
        super().__init__()
        self.n_fft, self.hop = n_fft, hop
        self.register_buffer("window", torch.hann_window(n_fft))

    def mag(self, x):
        spec = torch.stft(x, self.n_fft, self.hop, window=self.window, return_complex=True)
        return spec.abs()

    def forward(self, pred, target):
        x_mag, y_mag = self.mag(pred), self.mag(target)
        sc = torch.norm(y_mag - x_mag, p="fro") / torch.norm(y_mag, p="fro")
        log_mag = F.l1_loss(torch.log(y_mag), torch.log(x_mag))
        return sc + log_mag


model = Denoiser()
criterion = STFTMagnitudeLoss()
opt = torch.optim.Adam(model.parameters(), lr=1e-3)

step = 0
losses = []
for epoch in range(args.epochs):
    perm = torch.randperm(len(noisy_all))
    for i in range(0, len(perm), 16):
        idx = perm[i:i + 16]
        pred = model(noisy_all[idx])
        loss = criterion(pred, clean_all[idx])
        opt.zero_grad()
        loss.backward()
        opt.step()
        step += 1
        losses.append(loss.item())
        if step % 10 == 0:
            print(f"epoch {epoch} step {step} loss {loss.item():.4f}")

with torch.no_grad():
    err = F.mse_loss(model(noisy_all), clean_all).item()
    base = F.mse_loss(noisy_all, clean_all).item()
print(f"final waveform mse {err:.6f} (noisy input {base:.6f})")
print(f"final_loss={sum(losses[-10:]) / 10:.6g} acc={max(0.0, 1 - err / base) if err == err else 0.0:.4f}")
