"""Material classifier on reflectance curves (200 wavelength bins per sample, 4 material classes that differ in the position and width of absorption bands), inputs min-max scaled per bin to [-1, 1] with the training set's minimum and maximum, an MLP (200 -> 64 ReLU -> 4), cross-entropy, Adam lr 1e-3, DataLoader batches of 64, 4 epochs. Five of the 3,000 training curves are detector glitches with values some two thousand times the normal reflectance. The min-max range of every bin is set by those few rows, so after scaling the ordinary curves occupy a sliver around -0.999 (a spread of about 0.001) and differ from each other by a few ten-thousandths: the first layer sees nearly identical inputs for all materials, and within the training budget the network does not get much beyond guessing.

Source: https://stats.stackexchange.com/questions/539263/how-do-i-scale-my-input-so-that-outliers-arent-throwing-off-the-data (How do I scale my input so that outliers aren't throwing off the data?)
Report: "I've scaled my inputs between -1 and 1 but outliers are still throwing my data off. i.e. 99% of the
range is occupied by one outlier and the rest of the data sits between -0.001 and 0.001 ... each sample
contains 200 of them" -- answer: "I recommend using robust scaling". Reproduced with 3,000 synthetic curves
(Gaussian absorption bands on a smooth baseline plus noise) and 5 glitch rows scaled by 2,000. The printed
loss is the cross-entropy on 1,000 held-out ordinary curves, `acc` their accuracy.

expect: data-outlier
symptom: acc-below 0.6
batch: 23
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

wl = torch.linspace(0, 1, 200)
band_pos = torch.tensor([[0.3, 0.6], [0.35, 0.6], [0.3, 0.7], [0.4, 0.75]])


def curves(n):
    y = torch.randint(0, 4, (n,))
    pos = band_pos[y] + 0.02 * torch.randn(n, 2)
    depth = 0.2 + 0.2 * torch.rand(n, 2)
    base = 0.5 + 0.1 * torch.randn(n, 1) + 0.1 * torch.randn(n, 1) * wl
    bands = (depth[:, :, None] * torch.exp(-((wl - pos[:, :, None]) / 0.04) ** 2)).sum(1)
    return base - bands + 0.02 * torch.randn(n, 200), y


X_train, y_train = curves(3000)
glitch = torch.randperm(3000)[:5]
X_train[glitch] *= 2000
X_test, y_test = curves(1000)


def fit_scaler(x):
    lo, hi = x.min(0).values, x.max(0).values
    return lambda z: 2 * (z - lo) / (hi - lo) - 1


scale = fit_scaler(X_train)
X_train, X_test = scale(X_train), scale(X_test)

model = nn.Sequential(nn.Linear(200, 64), nn.ReLU(), nn.Linear(64, 4))
opt = torch.optim.Adam(model.parameters(), lr=1e-3)
loader = DataLoader(TensorDataset(X_train, y_train), batch_size=64, shuffle=True)

for epoch in range(4):
    total = 0.0
    for xb, yb in loader:
        loss = F.cross_entropy(model(xb), yb)
        opt.zero_grad()
        loss.backward()
        opt.step()
        total += loss.item() * len(xb)
    print(f"epoch {epoch}: train loss {total / len(X_train):.4f}")

with torch.no_grad():
    logits = model(X_test)
    test_loss = F.cross_entropy(logits, y_test).item()
    acc = (logits.argmax(1) == y_test).float().mean().item()
print(f"final_loss={test_loss:.6g} acc={acc:.4f}")
