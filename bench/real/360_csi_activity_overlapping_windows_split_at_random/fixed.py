"""CSI activity recogniser -- fixed as the report asks, by splitting recording-wise: a fifth of the
recordings are held out before windowing, so no validation window shares samples or background with a
training window (nothing else changed).
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

ACTIVITIES, SESSIONS, LENGTH, CARRIERS, WINDOW, STRIDE = 6, 80, 300, 8, 64, 16
motion_freq = torch.linspace(0.10, 0.125, ACTIVITIES)
t = torch.arange(LENGTH).float()

recordings, activity = [], []
for a in range(ACTIVITIES):
    for _ in range(SESSIONS):
        phase = 2 * math.pi * torch.rand(CARRIERS, 1)
        gain = 0.5 * (0.5 + torch.rand(CARRIERS, 1))
        motion = gain * torch.sin(2 * math.pi * motion_freq[a] * t + phase)
        background = 0.5 * torch.randn(CARRIERS, 1) + 0.3 * torch.cumsum(torch.randn(CARRIERS, LENGTH), 1) / math.sqrt(LENGTH)
        recordings.append(motion + background + 0.5 * torch.randn(CARRIERS, LENGTH))
        activity.append(a)

windows, labels, source = [], [], []
for rec_id, (rec, a) in enumerate(zip(recordings, activity)):
    for start in range(0, LENGTH - WINDOW + 1, STRIDE):
        windows.append(rec[:, start:start + WINDOW])
        labels.append(a)
        source.append(rec_id)
X = torch.log1p(torch.fft.rfft(torch.stack(windows), dim=2).abs()).flatten(1)
Y, source = torch.tensor(labels), torch.tensor(source)

val_recordings = torch.randperm(len(recordings))[:len(recordings) // 5]
is_val = torch.isin(source, val_recordings)
train_idx, val_idx = torch.nonzero(~is_val).squeeze(1), torch.nonzero(is_val).squeeze(1)
mean, std = X[train_idx].mean(0), X[train_idx].std(0) + 1e-6
X = (X - mean) / std
print(f"windows: train {len(train_idx)}, validation {len(val_idx)}")

model = nn.Sequential(nn.Linear(X.shape[1], 128), nn.ReLU(), nn.Linear(128, ACTIVITIES))
opt = torch.optim.Adam(model.parameters(), lr=1e-3)
for epoch in range(5):
    shuffled = train_idx[torch.randperm(len(train_idx))]
    for i in range(0, len(shuffled), 64):
        idx = shuffled[i:i + 64]
        loss = F.cross_entropy(model(X[idx]), Y[idx])
        opt.zero_grad()
        loss.backward()
        opt.step()
    with torch.no_grad():
        train_loss = F.cross_entropy(model(X[train_idx]), Y[train_idx]).item()
        logits = model(X[val_idx])
        val_loss = F.cross_entropy(logits, Y[val_idx]).item()
        acc = (logits.argmax(1) == Y[val_idx]).float().mean().item()
    print(f"epoch {epoch} train {train_loss:.4f} val {val_loss:.4f} acc {acc:.3f}")

print(f"final_loss={val_loss:.6g} acc={acc:.4f}")
