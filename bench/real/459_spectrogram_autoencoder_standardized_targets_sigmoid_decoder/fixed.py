"""Spectrogram-frame autoencoder with a sigmoid decoder output: the same program with each frequency bin scaled to [0, 1] using the training minimum and maximum instead of standardised to zero mean and unit variance, so every target lies inside the sigmoid's range and the autoencoder can reconstruct the quiet bins too.
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
    low, high = frames.min(0).values, frames.max(0).values
    return (lambda x: (x - low) / (high - low)), (lambda z: z * (high - low) + low)


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
