"""Keyword spotter on raw 16-bit audio (waveforms kept at int16 scale, framed into 32 frames of 128
samples; a fixed DFT basis computes the power spectrum, log1p compresses it, and an MLP classifies the
clip into 6 keywords; Adam, DataLoader). Training runs under torch.autocast on CPU with float16 for
speed. The DFT is a matmul, so autocast runs it in float16; with int16-scale samples the real and
imaginary parts reach 10^4-10^5 and their squares far exceed 65504, the float16 maximum. The power
spectrum overflows to inf, log1p(inf) is inf, and the first linear layer turns the infs into NaN:
the loss is NaN from the first batch.

Source: https://github.com/openvla/openvla/issues/30 (Train_loss to become NaN)
Report: "I would like to ask if using float16 for computation could cause the train_loss to become NaN.
Your code uses bfloat16, but my device ... does not support this precision." -- maintainer: "we use
bfloat16 instead of float16 because it captures a wider range of values ... float16 captures a
smaller range of numbers, so when you train, you are more likely to run into overflow/underflow that
leads to the NaN loss." Reproduced with 1,600 synthetic one-second clips at int16 scale (each keyword
a sequence of three formant-like tone segments, amplitude 2,000-8,000, plus noise), frame DFT with 64
bins, MLP 32x64-128-6, Adam lr 1e-3, batch 64, 6 epochs, autocast dtype float16. The printed loss is
the validation cross-entropy on 600 clips, `acc` the validation accuracy.

expect: fp16-overflow
symptom: nonfinite
batch: 15
"""
import argparse
import math

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset

ap = argparse.ArgumentParser()
ap.add_argument("--seed", type=int, default=0)
args = ap.parse_args()
torch.manual_seed(args.seed)
torch.set_num_threads(1)

AMP_DTYPE = torch.float16
FRAMES, HOP, BINS, WORDS, RATE = 32, 128, 64, 6, 4096
word_tones = 200 + 1600 * torch.rand(WORDS, 3)


def clips(n):
    y = torch.randint(0, WORDS, (n,))
    t = torch.arange(FRAMES * HOP).float() / RATE
    seg = (t * 3 / t[-1]).clamp(max=2.999).long()
    freq = word_tones[y][:, seg] * (1 + 0.03 * torch.randn(n, 1))
    amp = 2000 + 6000 * torch.rand(n, 1)
    wave = amp * torch.sin(2 * math.pi * freq * t + 6.28 * torch.rand(n, 1)) + 300 * torch.randn(n, FRAMES * HOP)
    return wave.round().clamp(-32768, 32767), y


k = torch.arange(BINS).float()[:, None]
m = torch.arange(HOP).float()[None, :]
window = torch.hann_window(HOP)
basis = torch.cat([torch.cos(2 * math.pi * k * m / HOP), -torch.sin(2 * math.pi * k * m / HOP)]) * window


class Spotter(nn.Module):
    def __init__(self):
        super().__init__()
        self.register_buffer("basis", basis)
        self.mlp = nn.Sequential(nn.Linear(FRAMES * BINS, 128), nn.ReLU(), nn.Linear(128, WORDS))

    def forward(self, wave):
        frames = wave.view(len(wave), FRAMES, HOP)
        spec = F.linear(frames, self.basis)
        power = spec[..., :BINS] ** 2 + spec[..., BINS:] ** 2
        feats = torch.log1p(power) / 10 - 1.5
        return self.mlp(feats.flatten(1))


x_train, y_train = clips(1600)
x_val, y_val = clips(600)
loader = DataLoader(TensorDataset(x_train, y_train), batch_size=64, shuffle=True)
model = Spotter()
opt = torch.optim.Adam(model.parameters(), lr=1e-3)
for epoch in range(6):
    total = 0.0
    for xb, yb in loader:
        with torch.autocast("cpu", dtype=AMP_DTYPE):
            loss = F.cross_entropy(model(xb), yb)
        opt.zero_grad()
        loss.backward()
        opt.step()
        total += loss.item() * len(yb)
    if epoch % 2 == 0:
        print(f"epoch {epoch} train loss {total / len(x_train):.4f}")

with torch.no_grad(), torch.autocast("cpu", dtype=AMP_DTYPE):
    out = model(x_val).float()
val_loss = F.cross_entropy(out, y_val).item()
acc = (out.argmax(1) == y_val).float().mean().item()
print(f"final_loss={val_loss:.6g} acc={acc:.4f}")
