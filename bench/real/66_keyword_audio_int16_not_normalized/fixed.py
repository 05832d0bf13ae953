"""1-D conv audio classifier fed raw int16-range waveforms (not scaled to [-1, 1]).

Source: https://github.com/NVIDIA/waveglow/issues/59 (If audio value range -2 to 2, then it will not convergence?)
Report: "i have done some experiments, if the audio value do not normalization to [-1,1] then it
seems not convergence, so what is the reason?" (and waveglow#71: "After doing normalize audio
amplitudes, My model have take training"). Audio read as int16 PCM and cast to float keeps
amplitudes in the thousands; a network initialised for unit-scale input then produces huge
activations and logits and the loss jumps around instead of converging. Reproduced with a small
keyword-spotting-style 1-D CNN on synthetic 0.25 s, 8 kHz clips of four sound classes (rising
chirp, falling chirp, steady tone, noise burst) stored as int16, with a torch Dataset/DataLoader and SGD with momentum.

expect: data-unnormalized
symptom: final-loss-ratio 3
batch: 3
"""
import argparse

import numpy as np
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, Dataset

ap = argparse.ArgumentParser()
ap.add_argument("--seed", type=int, default=0)
args = ap.parse_args()
torch.manual_seed(args.seed)
np.random.seed(args.seed)
torch.set_num_threads(1)

SR, N = 8000, 2000


def synth_clip(label):
    t = np.arange(N) / SR
    f0 = np.random.uniform(300, 900)
    if label == 0:
        sig = np.sin(2 * np.pi * (f0 * t + 1500 * t ** 2))
    elif label == 1:
        sig = np.sin(2 * np.pi * (f0 * 2 * t - 1500 * t ** 2))
    elif label == 2:
        sig = np.sin(2 * np.pi * f0 * t)
    else:
        sig = np.random.randn(N) * np.exp(-((t - np.random.uniform(0.05, 0.2)) / 0.03) ** 2)
    sig = sig * np.random.uniform(0.1, 0.6) + 0.02 * np.random.randn(N)
    return np.clip(sig * 32767, -32768, 32767).astype(np.int16)


class ClipDataset(Dataset):
    def __init__(self, n):
        self.labels = np.random.randint(0, 4, n)
        self.clips = [synth_clip(l) for l in self.labels]

    def __len__(self):
        return len(self.labels)

    def __getitem__(self, i):
        wav = torch.from_numpy(self.clips[i].astype(np.float32) / 32768.0)
        return wav.unsqueeze(0), int(self.labels[i])


class KWS(nn.Module):
    def __init__(self):
        super().__init__()
        self.features = nn.Sequential(
            nn.Conv1d(1, 16, 64, stride=8), nn.ReLU(),
            nn.Conv1d(16, 32, 8, stride=4), nn.ReLU(),
            nn.Conv1d(32, 32, 3), nn.ReLU(),
            nn.AdaptiveAvgPool1d(1),
        )
        self.fc = nn.Linear(32, 4)

    def forward(self, x):
        return self.fc(self.features(x).squeeze(-1))


train_loader = DataLoader(ClipDataset(1280), batch_size=32, shuffle=True)
test_set = ClipDataset(400)
model = KWS()
criterion = nn.CrossEntropyLoss()
optimizer = torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9)
losses = []
for epoch in range(8):
    for wav, y in train_loader:
        loss = criterion(model(wav), y)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        losses.append(loss.item())
    print(f"epoch {epoch} mean loss {np.mean(losses[-40:]):.4f} last {losses[-1]:.4f}")

with torch.no_grad():
    xs = torch.stack([test_set[i][0] for i in range(len(test_set))])
    acc = (model(xs).argmax(1).numpy() == test_set.labels).mean()
print(f"final_loss={sum(losses[-10:]) / 10:.6g} acc={acc:.4f}")
