"""Two-class EEG trial classifier (motor-imagery style: 8 electrodes x 128 samples per trial, the class shows up as stronger rhythmic power over two electrodes) built as a small CNN -- one temporal convolution, then the whole feature map flattened into a 256-unit dense layer with dropout, then the output. The flattened head gives the model ~250k weights for 320 training trials; trained full-batch for 200 Adam steps with L2 weight decay it fits the training trials perfectly by memorising where each trial's noise peaks fall, and its held-out loss climbs while the training loss goes to zero.

Source: https://geeksmental.com/question/convolutional-neural-network-overfitting (Convolutional Neural Network overfitting)
Report: "I built a CNN to learn to classify EEG data (only about 4000 training examples, 2 classes,
50-50 class balance) ... ConvLayer (4 filters), MaxPool, Dropout 50%, Fully connected (50 neurons),
Dropout 50%, Softmax. Im also using weight decay (L2 reg, lambda = 0.001). The problem is no matter
how I play with the filter parameters (size, stride, number) my network keeps overfitting. It fits
the training data 100%, but no matter what I do I can't get the test accuracy over 65%."
Reproduced with 320 synthetic training trials and 400 held-out trials (class-dependent 10 Hz power
on two electrodes, random phase, 1/f-like background noise), Conv1d(8, 16, 7) + ReLU + max-pool,
flatten, Linear(976, 256) + dropout 0.5, Linear(256, 2); Adam lr 1e-3, weight decay 1e-3,
200 full-batch steps. The printed loss is the cross-entropy on the held-out trials, `acc` the
accuracy there.

expect: overfitting
symptom: final-loss-ratio 1.5
batch: 18
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

CH, T, FS = 8, 128, 128.0
t = torch.arange(T) / FS


def trials(n):
    y = torch.randint(0, 2, (n,))
    noise = torch.cumsum(torch.randn(n, CH, T), dim=2) * 0.15
    noise = noise - noise.mean(2, keepdim=True) + 0.8 * torch.randn(n, CH, T)
    phase = 2 * math.pi * torch.rand(n, 1)
    rhythm = torch.sin(2 * math.pi * 10 * t[None] + phase)
    amp = torch.where(y == 1, 1.0, 0.35)[:, None]
    x = noise.clone()
    x[:, 2] += amp * rhythm
    x[:, 5] += (1.35 - amp) * rhythm
    return x, y


Xtr, ytr = trials(320)
Xte, yte = trials(400)
model = nn.Sequential(
    nn.Conv1d(CH, 16, 7), nn.ReLU(), nn.MaxPool1d(2),
    nn.Flatten(), nn.Linear(16 * 61, 256), nn.ReLU(), nn.Dropout(0.5), nn.Linear(256, 2),
)
opt = torch.optim.Adam(model.parameters(), lr=1e-3, weight_decay=1e-3)

for step in range(200):
    model.train()
    loss = F.cross_entropy(model(Xtr), ytr)
    opt.zero_grad()
    loss.backward()
    opt.step()
    if step % 25 == 24:
        model.eval()
        with torch.no_grad():
            logits = model(Xte)
            val = F.cross_entropy(logits, yte).item()
            acc = (logits.argmax(1) == yte).float().mean().item()
            train_acc = (model(Xtr).argmax(1) == ytr).float().mean().item()
        print(f"step {step + 1} train {loss.item():.4f} train_acc {train_acc:.3f} val {val:.4f} acc {acc:.4f}")

print(f"final_loss={val:.6g} acc={acc:.4f}")
