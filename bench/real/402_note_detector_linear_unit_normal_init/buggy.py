"""Multi-label note detector in the style of the MusicNet linear baseline: 512 log-magnitude frequency features of an audio frame -> one linear layer -> 32 note logits (sigmoid, binary cross-entropy), SGD lr 0.1 with momentum 0.9, batches of 100 formed by accumulating the gradients of two DataLoader micro-batches of 50, 6 epochs. The reporter replaced the repository's zero initialization of the linear weights with random weights, here drawn at unit scale (N(0, 1)): with 512 inputs every logit starts with a standard deviation of around ten, nearly every sigmoid is saturated at 0 or 1 and the frames start with a binary cross-entropy of several nats per note. At a learning rate chosen for a sensibly initialized model the weights cannot undo that start within the run, and the detector stays far worse than one that starts from small weights.

Source: https://github.com/jthickstun/pytorch_musicnet/issues/4 (Zero initial weights)
Report: "Inside your Model class, you set the initial weights to be zero ... If I start with random weights,
the model somehow doesn't work, the accuracy will be very low." -- maintainer: "a random initialization
should also work: e.g., normal mean zero with variance .01. You might need to turn down the learning rate
a little bit if you initialize with very large weights." Reproduced with 8,000 synthetic frames (each
active note adds its harmonic comb to the spectrum, plus noise; about three notes per frame). The printed
loss is the binary cross-entropy on 2,000 held-out frames, `acc` the per-note accuracy on them.

expect: bad-init
symptom: final-loss-ratio 2.5
batch: 24
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

NOTES, BINS = 32, 512
bins = torch.arange(BINS).float()
f0 = 8.0 * 2 ** (torch.arange(NOTES) / 12.0)
combs = sum(torch.exp(-((bins[None] - h * f0[:, None]) ** 2) / 2.0) / h for h in range(1, 6))


def frames(n):
    notes = (torch.rand(n, NOTES) < 3.0 / NOTES).float()
    spec = notes @ combs + 0.05 * torch.rand(n, BINS)
    return torch.log1p(10 * spec), notes


X_train, y_train = frames(8000)
X_test, y_test = frames(2000)
model = nn.Linear(BINS, NOTES)
with torch.no_grad():
    model.weight.normal_(0, 1.0)
    model.bias.zero_()
opt = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)
loader = DataLoader(TensorDataset(X_train, y_train), batch_size=50, shuffle=True)
ACCUM = 2

for epoch in range(6):
    total = 0.0
    for i, (xb, yb) in enumerate(loader):
        loss = F.binary_cross_entropy_with_logits(model(xb), yb)
        (loss / ACCUM).backward()
        if (i + 1) % ACCUM == 0:
            opt.step()
            opt.zero_grad()
        total += loss.item() * len(xb)
    print(f"epoch {epoch} bce {total / len(X_train):.4f}")

with torch.no_grad():
    logits = model(X_test)
    test_loss = F.binary_cross_entropy_with_logits(logits, y_test).item()
    acc = ((logits > 0).float() == y_test).float().mean().item()
print(f"final_loss={test_loss:.6g} acc={acc:.4f}")
