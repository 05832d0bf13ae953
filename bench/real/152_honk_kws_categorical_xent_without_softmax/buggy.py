"""Keyword-spotting CNN (honk-style res8-narrow on 40 x 48 log-mel features, 4 commands) whose last layer is a plain linear layer while the loss is Keras' categorical_crossentropy, which expects probabilities (it divides the outputs by their sum, clips to [eps, 1-eps] and takes the log): for raw scores the sum can be near zero or negative, the clipped ratios have zero or sign-flipped gradients, and training ends with a high, erratic loss (and on some seeds an accuracy at or below chance) where the softmax model is near zero.

Source: https://github.com/castorini/honkling/pull/11 (prediction with audio file on honking)
Report: "training was returning incorrect accuracy and high loss due to the way I use
categoricalCrossentropy loss function. When model is compiled with categoricalCrossentropy, it expects
soft_max layer as a last layer of the model. After fixing above issue, I was able to get
90% > accuracy for 4 commands (go, no, yes, stop)." Reproduced with the training script's shape in
PyTorch (MFCC-like input, res8-narrow: conv + 3 residual blocks of 19 channels with dilation,
average pool, dense output of 4 units, Adam, mini-batches through a DataLoader) and a
categorical_crossentropy written as Keras computes it for from_logits=False, on synthetic
utterances of "go", "no", "yes", "stop" (word-specific formant tracks with random onset, speed,
pitch shift and background noise). The printed loss is the last epoch's mean training loss, `acc`
the test accuracy.

expect: loss-mismatch
symptom: final-loss-ratio 5
batch: 8
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

N_MEL, N_FRAMES = 40, 48
COMMANDS = ["go", "no", "yes", "stop"]
# formant tracks (start, end) in mel-bin units for three formants, plus a burst flag
TRACKS = {
    "go": [(8, 6), (14, 10), (26, 24)],
    "no": [(9, 7), (20, 12), (27, 25)],
    "yes": [(6, 8), (28, 20), (33, 30)],
    "stop": [(10, 9), (15, 16), (25, 27)],
}
BURST = {"go": 0, "no": 0, "yes": 1, "stop": 2}


def utterance(word):
    spec = 0.3 * torch.rand(N_MEL, N_FRAMES)
    length = int(22 + 14 * torch.rand(1))
    onset = int(torch.randint(0, N_FRAMES - length, (1,)))
    shift = float(torch.randn(1)) * 1.0
    bins = torch.arange(N_MEL).float()[:, None]
    for k, (a, b) in enumerate(TRACKS[word]):
        t = torch.linspace(0, 1, length)
        centre = a + (b - a) * t + shift
        spec[:, onset:onset + length] += (1.0 - 0.2 * k) * torch.exp(-0.5 * ((bins - centre) / 1.3) ** 2)
    if BURST[word] == 1:                      # fricative onset ("y..s")
        spec[26:, onset + length - 6:onset + length] += 0.8 * torch.rand(N_MEL - 26, 6)
    if BURST[word] == 2:                      # "s" then stop closure
        spec[24:, onset:onset + 6] += 0.8 * torch.rand(N_MEL - 24, 6)
        spec[:, onset + length - 4:onset + length] *= 0.3
    return torch.log1p(4 * spec)


def dataset(n):
    y = torch.randint(0, 4, (n,))
    return torch.stack([utterance(COMMANDS[int(i)]) for i in y]).unsqueeze(1), y


X_train, y_train = dataset(1000)
X_test, y_test = dataset(300)


class Res8Narrow(nn.Module):
    def __init__(self, n_labels=4, n_maps=19):
        super().__init__()
        self.conv0 = nn.Conv2d(1, n_maps, 3, padding=1, bias=False)
        self.convs = nn.ModuleList([nn.Conv2d(n_maps, n_maps, 3, padding=2 ** (i // 2), dilation=2 ** (i // 2),
                                              bias=False) for i in range(6)])
        self.bns = nn.ModuleList([nn.BatchNorm2d(n_maps, affine=False) for _ in range(6)])
        self.output = nn.Linear(n_maps, n_labels)

    def forward(self, x):
        x = F.avg_pool2d(F.relu(self.conv0(x)), (2, 2))
        old = x
        for i, (conv, bn) in enumerate(zip(self.convs, self.bns)):
            y = F.relu(conv(x))
            if i % 2 == 1:
                y = y + old
                old = y
            x = bn(y)
        x = x.mean((2, 3))
        return self.output(x)                  # Dense(4), no activation


def categorical_crossentropy(target, output, eps=1e-7):
    """Keras' categorical_crossentropy with from_logits=False."""
    output = output / output.sum(-1, keepdim=True)
    output = output.clamp(eps, 1 - eps)
    return -(target * torch.log(output)).sum(-1).mean()


model = Res8Narrow()
optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
loader = DataLoader(TensorDataset(X_train, y_train), batch_size=32, shuffle=True)
for epoch in range(5):
    model.train()
    total, n = 0.0, 0
    for xb, yb in loader:
        loss = categorical_crossentropy(F.one_hot(yb, 4).float(), model(xb))
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        total += loss.item() * len(xb)
        n += len(xb)
    print(f"epoch {epoch} loss {total / n:.4f}")

model.eval()
with torch.no_grad():
    acc = (model(X_test).argmax(1) == y_test).float().mean().item()
print(f"final_loss={total / n:.6g} acc={acc:.4f}")
