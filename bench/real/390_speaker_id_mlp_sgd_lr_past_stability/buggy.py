"""Speaker-identification network used to learn speaker embeddings: per-utterance acoustic statistics (means and deviations of 40 filterbank channels, 80 values, standardised), an MLP (80 -> 256 ReLU -> 128 ReLU embedding -> 30 speaker logits), softmax cross-entropy, SGD with momentum 0.9 and weight decay 1e-4, DataLoader batches of 64, 6 epochs. The initial learning rate of 0.8 is well beyond the largest rate this network trains stably at: the first updates overshoot, logits and hidden activations blow up, many ReLU units are pushed into the dead region, and the loss ends far above where the same network gets at a smaller rate.

Source: https://github.com/MahdiHajibabaei/unified-embedding/issues/6 (I can't train....the loss diverges....how do I solve this?)
Report: "I train ResNet-20.prototxt, but the loss diverges. I checked the paper, and there is no configuration
difference" -- author: "decreasing the initial learning rate by 10 percent should solve the problem ... We
selected the largest learning rate that did not result in divergence and given that the dataset might have
changed since we ran the experiments, the largest value of learning rate might have changed as well."
Reproduced with 6,000 synthetic utterances of 30 speakers (a speaker-specific spectral profile plus
session and noise variation) and a learning rate well past the stable range, so that the run diverges on
every seed. The printed loss is the cross-entropy on 1,500 held-out utterances, `acc` the held-out
speaker accuracy.

expect: lr-too-high
symptom: final-loss-ratio 3
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

SPEAKERS, LR = 30, 0.8
profile = torch.randn(SPEAKERS, 80)


def utterances(n):
    spk = torch.randint(0, SPEAKERS, (n,))
    session = 0.6 * torch.randn(n, 1) * torch.linspace(-1, 1, 80)
    return profile[spk] + session + 2.0 * torch.randn(n, 80), spk


X_train, y_train = utterances(6000)
X_test, y_test = utterances(1500)
mean, std = X_train.mean(0), X_train.std(0)
X_train, X_test = (X_train - mean) / std, (X_test - mean) / std

model = nn.Sequential(nn.Linear(80, 256), nn.ReLU(), nn.Linear(256, 128), nn.ReLU(), nn.Linear(128, SPEAKERS))
opt = torch.optim.SGD(model.parameters(), lr=LR, momentum=0.9, weight_decay=1e-4)
loader = DataLoader(TensorDataset(X_train, y_train), batch_size=64, shuffle=True)

for epoch in range(6):
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
