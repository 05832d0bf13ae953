"""Impedance-spectrum circuit classifier -- fixed as the issue explains: both subsets are cut from
the SAME permutation (the split helper gets the same seed for "training" and "validation"), so the
validation spectra are disjoint from the training spectra. Nothing else changed.
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

omega = 2 * math.pi * torch.logspace(-2, 5, 48)


def spectrum(kind):
    r0 = 10 ** (torch.rand(()) * 2 - 1)
    r1, r2 = 10 ** (torch.rand(2) * 2)
    c1, c2 = 10 ** (-torch.rand(2) * 4 - 2)
    alpha = 0.6 + 0.3 * torch.rand(())
    sigma = 10 ** (torch.rand(()) * 2 - 1)
    jw = 1j * omega
    warburg = sigma * (1 - 1j) / torch.sqrt(omega)
    if kind == 0:
        z = r0 + r1 / (1 + jw * r1 * c1)
    elif kind == 1:
        z = r0 + r1 / (1 + jw * r1 * c1) + r2 / (1 + jw * r2 * c2)
    elif kind == 2:
        z = r0 + r1 / (1 + (jw) ** alpha * r1 * c1)
    elif kind == 3:
        z = r0 + r1 / (1 + jw * r1 * c1) + warburg
    else:
        z = r0 + (r1 + warburg) / (1 + (jw) ** alpha * (r1 + warburg) * c1)
    z = z / z.abs().max()
    z = z * (1 + 0.15 * torch.randn(48))
    return torch.stack([z.real, -z.imag]).float()


def dataset(n):
    y = torch.randint(0, 5, (n,))
    return torch.stack([spectrum(int(k)) for k in y]), y


def split(X, y, subset, seed, validation_split=0.2):
    perm = torch.randperm(len(X), generator=torch.Generator().manual_seed(seed))
    cut = int(len(X) * (1 - validation_split))
    idx = perm[:cut] if subset == "training" else perm[cut:]
    return X[idx], y[idx]


X_all, y_all = dataset(800)
X_tr, y_tr = split(X_all, y_all, "training", seed=1)
X_va, y_va = split(X_all, y_all, "validation", seed=1)

model = nn.Sequential(
    nn.Conv1d(2, 32, 5, padding=2), nn.ReLU(), nn.MaxPool1d(2),
    nn.Conv1d(32, 32, 5, padding=2), nn.ReLU(), nn.MaxPool1d(2),
    nn.Flatten(), nn.Linear(32 * 12, 256), nn.ReLU(), nn.Linear(256, 5),
)
opt = torch.optim.Adam(model.parameters(), lr=3e-3, weight_decay=1e-4)
sched = torch.optim.lr_scheduler.CosineAnnealingLR(opt, T_max=70)
loader = DataLoader(TensorDataset(X_tr, y_tr), batch_size=32, shuffle=True)

for epoch in range(70):
    model.train()
    for xb, yb in loader:
        loss = F.cross_entropy(model(xb), yb)
        opt.zero_grad()
        loss.backward()
        opt.step()
    sched.step()
    model.eval()
    with torch.no_grad():
        logits = model(X_va)
        val_loss = F.cross_entropy(logits, y_va).item()
        acc = (logits.argmax(1) == y_va).float().mean().item()
    if epoch % 7 == 6:
        print(f"epoch {epoch} train {loss.item():.4f} val {val_loss:.4f} acc {acc:.3f}")

print(f"final_loss={val_loss:.6g} acc={acc:.4f}")
