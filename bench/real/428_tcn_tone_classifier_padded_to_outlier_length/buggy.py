"""Temporal convolutional network (causal dilated 1-D convolutions, dilations 1-32, receptive field 127 steps) classifying noisy vibration recordings into 4 machine states by reading the network output at the last time step, as the TCN sequence classifiers do. Almost all recordings are 60-110 samples long, but a handful of outliers run for 1,000-1,500 samples; the dataset pads every recording with trailing zeros to the longest length in the data. For a typical 80-sample recording the last time step is then ~1,400 zeros away from any signal, far outside the receptive field, so the classifier sees only padding for nearly every example and stays at chance.

Source: https://github.com/locuslab/TCN/issues/28 (About different sequence input)
Report: "I have a totally different sequence, the smallest length is about 100 words, the max is about 5000. I
attempt to padding zero to the same length of 5000, but the classified result is terrible." -- maintainer: "when the
padding is too long compared to the original sequence (e.g., 4900 zeros and then 100 non-zeros) it's harder for the
dilated convolution to learn". Reproduced with 640 synthetic recordings (a state-specific tone plus noise, lengths
60-110, 3% outliers of 1,000-1,500 samples), zero-padded to the maximum length, TCN with 16 channels, Adam lr 5e-3,
batch 32, 5 epochs. The printed loss is the held-out cross-entropy; `acc` is the held-out accuracy.

expect: data-outlier
symptom: acc-below 0.5
batch: 26
"""
import argparse
import math

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader

ap = argparse.ArgumentParser()
ap.add_argument("--seed", type=int, default=0)
args = ap.parse_args()
torch.manual_seed(args.seed)
torch.set_num_threads(1)

N_STATES = 4
FREQS = [0.05, 0.09, 0.14, 0.2]


def recording(state):
    if torch.rand(()) < 0.03:
        n = int(torch.randint(1000, 1501, ()))
    else:
        n = int(torch.randint(60, 111, ()))
    t = torch.arange(n, dtype=torch.float32)
    phase = float(torch.rand(()) * 2 * math.pi)
    return torch.sin(2 * math.pi * FREQS[state] * t + phase) + 0.6 * torch.randn(n)


def dataset(n):
    ys = torch.randint(0, N_STATES, (n,))
    return [(recording(int(y)), int(y)) for y in ys]


train, test = dataset(640), dataset(240)
PAD_TO = max(len(x) for x, _ in train + test)


def prepare(x):
    return x


def collate(batch):
    xs = torch.zeros(len(batch), 1, PAD_TO)
    for k, (x, _) in enumerate(batch):
        x = prepare(x)
        xs[k, 0, :len(x)] = x
    return xs, torch.tensor([y for _, y in batch])


class CausalBlock(nn.Module):
    def __init__(self, cin, cout, dilation):
        super().__init__()
        self.pad = 2 * dilation
        self.conv = nn.Conv1d(cin, cout, 3, dilation=dilation)
        self.skip = nn.Conv1d(cin, cout, 1) if cin != cout else nn.Identity()

    def forward(self, x):
        return F.relu(self.conv(F.pad(x, (self.pad, 0)))) + self.skip(x)


class TCN(nn.Module):
    def __init__(self):
        super().__init__()
        chans = [1, 16, 16, 16, 16, 16, 16]
        self.blocks = nn.Sequential(*[CausalBlock(chans[k], chans[k + 1], 2 ** k) for k in range(6)])
        self.head = nn.Linear(16, N_STATES)

    def forward(self, x):
        return self.head(self.blocks(x)[:, :, -1])


model = TCN()
opt = torch.optim.Adam(model.parameters(), lr=5e-3)
train_loader = DataLoader(train, batch_size=32, shuffle=True, collate_fn=collate)
test_loader = DataLoader(test, batch_size=100, collate_fn=collate)
for epoch in range(5):
    for xb, yb in train_loader:
        loss = F.cross_entropy(model(xb), yb)
        opt.zero_grad()
        loss.backward()
        opt.step()
    print(f"epoch {epoch} last batch loss {loss.item():.4f}")

total, correct = 0.0, 0
with torch.no_grad():
    for xb, yb in test_loader:
        logits = model(xb)
        total += F.cross_entropy(logits, yb, reduction="sum").item()
        correct += (logits.argmax(1) == yb).sum().item()
print(f"final_loss={total / len(test):.6g} acc={correct / len(test):.4f}")
