"""Barlow Twins pre-training on spectrogram patches -- fixed by checking the inputs when the training set is built and leaving out patches that contain non-finite values (`torch.isfinite(x).all()` per patch), so no NaN reaches the batch statistics (nothing else changed).
"""
import argparse

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset

ap = argparse.ArgumentParser()
ap.add_argument("--seed", type=int, default=0)
args = ap.parse_args()
torch.manual_seed(args.seed)
torch.set_num_threads(1)

BANDS, FRAMES, TYPES = 10, 16, 6
profiles = torch.rand(TYPES, BANDS, 1) * 2
rates = 0.2 + 0.8 * torch.rand(TYPES, 1, 1)
t = torch.arange(FRAMES).float()


def patches(n):
    y = torch.randint(0, TYPES, (n,))
    phase = 6.28 * torch.rand(n, 1, 1)
    x = profiles[y] * (1 + 0.6 * torch.sin(rates[y] * t + phase)) + 0.3 * torch.randn(n, BANDS, FRAMES)
    return x, y


X_train, _ = patches(3000)
broken = torch.randperm(3000)[:12]
for i in broken.tolist():
    start = int(torch.randint(0, FRAMES - 4, (1,)))
    X_train[i, :, start:start + 4] = float("nan")
X_test, y_test = patches(600)


def usable(x):
    return torch.isfinite(x).flatten(1).all(1)


def augment(x):
    x = x * (0.8 + 0.4 * torch.rand(len(x), 1, 1)) + 0.2 * torch.randn_like(x)
    start = torch.randint(0, FRAMES - 3, (len(x), 1, 1))
    keep = ((t < start) | (t >= start + 3)).float()
    return (x * keep).flatten(1)


encoder = nn.Sequential(nn.Linear(BANDS * FRAMES, 128), nn.ReLU(), nn.Linear(128, 64))
projector = nn.Sequential(nn.Linear(64, 128), nn.BatchNorm1d(128), nn.ReLU(), nn.Linear(128, 128))
bn = nn.BatchNorm1d(128, affine=False)


def barlow_twins_loss(z1, z2, lambd=5e-3):
    c = bn(z1).T @ bn(z2) / len(z1)
    on_diag = (torch.diagonal(c) - 1).pow(2).sum()
    off_diag = (c - torch.diag(torch.diagonal(c))).pow(2).sum()
    return on_diag + lambd * off_diag


loader = DataLoader(TensorDataset(X_train[usable(X_train)]), batch_size=128, shuffle=True, drop_last=True)
opt = torch.optim.Adam(list(encoder.parameters()) + list(projector.parameters()), lr=1e-3)

for epoch in range(4):
    losses = []
    for (xb,) in loader:
        loss = barlow_twins_loss(projector(encoder(augment(xb))), projector(encoder(augment(xb))))
        opt.zero_grad()
        loss.backward()
        opt.step()
        losses.append(loss.item())
    print(f"epoch {epoch}: bt loss {sum(losses) / len(losses):.3f}")

with torch.no_grad():
    emb = F.normalize(encoder(X_test.flatten(1)), dim=1)
    half = len(emb) // 2
    means = torch.stack([emb[:half][y_test[:half] == k].mean(0) for k in range(TYPES)])
    acc = ((emb[half:] @ means.T).argmax(1) == y_test[half:]).float().mean().item()
print(f"final_loss={sum(losses) / len(losses):.6g} acc={acc:.4f}")
