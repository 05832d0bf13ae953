"""Spectrogram-frame autoencoder: an MLP encoder compresses 64-bin log-magnitude spectrogram frames (synthetic harmonic sounds) to an 8-d code and a decoder ending in a sigmoid reconstructs the frame, trained with Adam on the MSE. The frames are standardised per bin (zero mean, unit variance) before being used as input and as reconstruction target, but the decoder's sigmoid can only produce values in (0, 1): every below-average bin -- roughly half of all targets -- is out of reach, those errors never go away, and the reconstructions (mapped back to log-magnitude) stay far worse than the same autoencoder trained on frames scaled to [0, 1].

Source: https://github.com/mikesj-public/convolutional_autoencoder/pull/9 (fixed some issues with clipping the data, and unused variables)
Report: "The normalization to the mean and standard deviation was unnecessary in this case, and it was chopping off the bottom half of
the data because the network couldn't reconstruct negative values. Another solution would be to use a tanh nonlinearity on the
output" -- maintainer: "Doh! The original version used tanh for that exact reason." Reproduced with synthetic harmonic
spectrogram frames and a sigmoid-output MLP autoencoder; the fix scales each bin to [0, 1] with the training minimum and maximum
instead of standardising it. The printed loss is the held-out reconstruction MSE in log-magnitude units (after undoing the
scaling), `acc` the fraction of held-out bins reconstructed within 0.5.

expect: loss-mismatch
symptom: final-loss-ratio 3
batch: 28
"""
import argparse
import math

import torch
import torch.nn as nn
import torch.nn.functional as F

ap = argparse.ArgumentParser()
ap.add_argument("--seed", type=int, default=0)
args = ap.parse_args()
torch.manual_seed(args.seed)
torch.set_num_threads(1)

BINS, CODE = 64, 8
freqs = torch.arange(BINS).float()


def spectrogram_frames(n):
    f0 = 3 + 5 * torch.rand(n, 1)
    loudness = 2 + 2 * torch.rand(n, 1)
    decay = 0.3 + 0.5 * torch.rand(n, 1)
    mag = torch.zeros(n, BINS)
    for h in range(1, 8):
        mag += loudness * torch.exp(-decay * (h - 1)) * torch.exp(-((freqs - h * f0) ** 2) / 2.0)
    return torch.log1p(mag) + 0.05 * torch.randn(n, BINS)


def fit_scaling(frames):
    mean, std = frames.mean(0), frames.std(0)
    return (lambda x: (x - mean) / std), (lambda z: z * std + mean)


X_train = spectrogram_frames(4000)
X_test = spectrogram_frames(1000)
scale, unscale = fit_scaling(X_train)
Z_train, Z_test = scale(X_train), scale(X_test)
model = nn.Sequential(
    nn.Linear(BINS, 128), nn.ReLU(), nn.Linear(128, CODE),
    nn.Linear(CODE, 128), nn.ReLU(), nn.Linear(128, BINS), nn.Sigmoid(),
)
opt = torch.optim.Adam(model.parameters(), lr=2e-3)
loader = torch.utils.data.DataLoader(torch.utils.data.TensorDataset(Z_train), batch_size=64, shuffle=True)

for epoch in range(8):
    total = 0.0
    for (zb,) in loader:
        loss = F.mse_loss(model(zb), zb)
        opt.zero_grad()
        loss.backward()
        opt.step()
        total += loss.item() * len(zb)
    with torch.no_grad():
        recon = unscale(model(Z_test))
        test_mse = F.mse_loss(recon, X_test).item()
        acc = ((recon - X_test).abs() < 0.5).float().mean().item()
    print(f"epoch {epoch} train {total / len(Z_train):.4f} test_mse {test_mse:.4f} within0.5 {acc:.3f}")

print(f"final_loss={test_mse:.6g} acc={acc:.4f}")
