"""WiFi CSI activity recogniser: 480 recordings (6 activities x 80 sessions) of 8 sub-carrier amplitude streams, 300 samples each, are cut into sliding windows of 64 samples with a stride of 16, each window becomes log-magnitude spectra per sub-carrier, and an MLP (520-128-6, cross-entropy, Adam lr 1e-3, batches of 64 sliced by hand) classifies the activity. The windows are shuffled and split 80/20 at random, so consecutive windows of the same recording -- which share three quarters of their samples and the recording's own background -- land on both sides: the validation set mostly contains near-copies of training windows, and the validation loss reports a recogniser that is much better than it is on recordings it has never seen.

Source: https://github.com/ermongroup/Wifi_Activity_Recognition/issues/47 (Invalid methodology)
Report: "Time series data should never be split randomly as you have done. Sliding windows ensure most of
the validation set is at least 80% similar to the training set. You can see this from the validation loss
which continues to decrease despite 2000 epochs. Cross validation should be done subject-wise."
Reproduced with synthetic CSI recordings (an activity-specific motion frequency with random per-carrier
gain and phase, a per-recording static offset and slow drift, noise), the windowing above, a random
window-level split, 5 epochs. The printed loss is the validation cross-entropy, `acc` the validation
accuracy.

expect: data-leakage
symptom: loss-below 0.18
batch: 21
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

order = torch.randperm(len(X))
n_train = int(0.8 * len(X))
train_idx, val_idx = order[:n_train], order[n_train:]
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
