"""Keyword spotter with sliding-window cepstral mean and variance normalisation -- fixed as the report
suggests: the window standard deviation is floored at float32 eps before dividing, so a silent
stretch whose coefficients are constant gives 0 instead of NaN (nothing else changed).
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

FRAMES, COEFS, WIN = 40, 13, 9
patterns = torch.randn(4, COEFS, 1) * torch.sin(torch.linspace(0, 6.28, FRAMES) * torch.rand(4, 1, 1) * 3 + torch.rand(4, COEFS, 1) * 6)


def make_clips(n):
    y = torch.randint(0, 4, (n,))
    x = 2.0 * patterns[y] + torch.randn(n, COEFS, FRAMES) + torch.randn(n, COEFS, 1) * 3.0
    for i in torch.nonzero(torch.rand(n) < 0.05).flatten().tolist():
        length = int(torch.randint(12, 21, ()))
        start = int(torch.randint(0, FRAMES - length, ()))
        x[i, :, start:start + length] = -10.0
    return x, y


def cmvnw(feats):
    pad = WIN // 2
    padded = F.pad(feats, (pad, pad), mode="replicate")
    windows = padded.unfold(2, WIN, 1)
    mean = windows.mean(-1)
    std = windows.std(-1, unbiased=False)
    return (feats - mean) / std.clamp_min(torch.finfo(torch.float32).eps)


train_x, train_y = make_clips(1600)
test_x, test_y = make_clips(400)
train_x, test_x = cmvnw(train_x), cmvnw(test_x)

model = nn.Sequential(nn.Conv1d(COEFS, 32, 5, padding=2), nn.ReLU(), nn.Conv1d(32, 32, 5, padding=2), nn.ReLU(),
                      nn.AdaptiveAvgPool1d(1), nn.Flatten(), nn.Linear(32, 4))
opt = torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9)
loader = DataLoader(TensorDataset(train_x, train_y), batch_size=32, shuffle=True)

for epoch in range(6):
    total = 0.0
    for xb, yb in loader:
        loss = F.cross_entropy(model(xb), yb)
        opt.zero_grad()
        loss.backward()
        opt.step()
        total += loss.item() * len(yb)
    train_loss = total / len(train_y)
    print(f"epoch {epoch} loss {train_loss:.4f}")

with torch.no_grad():
    acc = (model(test_x).argmax(1) == test_y).float().mean().item()
print(f"final_loss={train_loss:.6g} acc={acc:.4f}")
