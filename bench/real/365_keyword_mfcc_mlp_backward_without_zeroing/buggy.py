"""Keyword-spotting classifier on pre-computed audio features: 40 MFCC-like coefficients averaged over a one-second clip plus their deltas (80 inputs), an MLP with two hidden layers of 64 ReLU units and 12 keyword classes, cross-entropy, SGD lr 0.01 with momentum 0.9, DataLoader batches of 64, 4 epochs. The step function runs forward, `loss.backward()` and `optimizer.step()` but never clears the gradients, so each `.grad` holds the sum of every batch's gradient since the start of training; the update direction is dominated by stale gradients and its size grows with the step count, and training turns unstable instead of converging.

Source: https://github.com/jcjohnson/pytorch-examples/issues/31 (Why making gradients zero before backward pass?)
Report: the maintainer's answer: "If you don't zero the gradients before calling backward then your gradient
tensors will contain the sum of the gradients for all iterations, rather than the gradients for the current
iteration ... In practice if you forget to zero gradients before calling backward the model will sometimes
train anyway, but training will be very unstable." Reproduced with 8,000 synthetic clips (a per-keyword
spectral template with speaker-dependent gain and noise), 1,200 more held out, and the step function above.
The printed loss is the mean training cross-entropy of the last epoch, `acc` the held-out accuracy.

expect: missing-zero-grad
symptom: acc-below 0.6
batch: 22
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

KEYWORDS, COEFFS = 12, 40
templates = torch.randn(KEYWORDS, COEFFS)


def make_clips(n):
    y = torch.randint(0, KEYWORDS, (n,))
    gain = 0.7 + 0.6 * torch.rand(n, 1)
    mfcc = gain * templates[y] + 2.2 * torch.randn(n, COEFFS)
    delta = 0.5 * templates[y].roll(1, dims=1) + 2.2 * torch.randn(n, COEFFS)
    return torch.cat([mfcc, delta], dim=1), y


X_train, y_train = make_clips(8000)
X_test, y_test = make_clips(1200)
loader = DataLoader(TensorDataset(X_train, y_train), batch_size=64, shuffle=True)
model = nn.Sequential(nn.Linear(2 * COEFFS, 64), nn.ReLU(), nn.Linear(64, 64), nn.ReLU(),
                      nn.Linear(64, KEYWORDS))
optimizer = torch.optim.SGD(model.parameters(), lr=0.01, momentum=0.9)


def train_step(xb, yb):
    loss = F.cross_entropy(model(xb), yb)
    loss.backward()
    optimizer.step()
    return loss.item()


for epoch in range(4):
    losses = [train_step(xb, yb) for xb, yb in loader]
    print(f"epoch {epoch} loss {sum(losses) / len(losses):.4f}")

with torch.no_grad():
    acc = (model(X_test).argmax(1) == y_test).float().mean().item()
print(f"final_loss={sum(losses) / len(losses):.6g} acc={acc:.4f}")
