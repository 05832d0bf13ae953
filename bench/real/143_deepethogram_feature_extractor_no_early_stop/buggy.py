"""Behaviour-classification "feature extractor" (deepethogram-style: a small CNN on stacked video frames, per-frame multi-label BCE over behaviours) trained on a few hundred labelled frames at a constant learning rate for a fixed 100 epochs with no plateau schedule or early stop: after ~15 epochs the training loss keeps falling while the validation loss climbs, and the model kept at the end is the overfitted one.

Source: https://github.com/jbohnslav/deepethogram/issues/8 (Overfitting)
Report: "In the feature extraction step, after ~100 epochs, my validation loss begins increasing
while my train loss continues to decrease. Do you have any suggestions on which hyperparameters to
tweak to better generalize the model and prevent overfitting to the training set?"; the
maintainer: "Dropout is already set very high ... By default, the learning rate should decrease
when validation loss plateaus, and then the model should stop itself" (deepethogram's trainer
reduces the LR on a validation plateau, stops when it falls below a minimum and keeps the best
checkpoint). Reproduced with that training step in miniature (two stacked 24 x 24 grey frames per
sample, conv-BN-ReLU x 3 + dropout + linear head over 4 behaviours -- rear, groom, locomote,
still -- BCEWithLogits, Adam lr 3e-3, 100 epochs, a validation pass per epoch) on 200 labelled
training frames and 400 validation frames from other synthetic videos, with 20 % label noise
from hand annotation. The printed loss is the validation BCE of the model kept at the end, `acc` its
validation per-label accuracy.

expect: overfitting
symptom: final-loss-ratio 1.25
batch: 8
"""
import argparse
import copy
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

S = 24
yy, xx = torch.meshgrid(torch.arange(S).float(), torch.arange(S).float(), indexing="ij")


def mouse(cx, cy, angle, length, width, bright):
    dx, dy = xx - cx, yy - cy
    u = dx * math.cos(angle) + dy * math.sin(angle)
    v = -dx * math.sin(angle) + dy * math.cos(angle)
    return bright * torch.exp(-0.5 * ((u / length) ** 2 + (v / width) ** 2))


def make_frames(n):
    frames, labels = [], []
    for _ in range(n):
        rear, groom, loco = (torch.rand(3) < torch.tensor([0.3, 0.25, 0.35])).tolist()
        cx, cy = 6 + 12 * torch.rand(2).tolist()[0], 6 + 12 * torch.rand(1).item()
        angle = 2 * math.pi * torch.rand(1).item()
        length = 3.0 if rear else 5.0
        width = 2.6 if rear else 1.8
        bright = 1.3 if rear else 1.0
        f0 = mouse(cx, cy, angle, length, width, bright)
        step = 2.5 if loco else 0.2
        cx2, cy2 = cx + step * math.cos(angle), cy + step * math.sin(angle)
        f1 = mouse(cx2, cy2, angle + (0.6 * torch.randn(1).item() if groom else 0.05), length, width, bright)
        if groom:                                                      # paws at the head: flicker
            hx, hy = cx2 + 0.8 * length * math.cos(angle), cy2 + 0.8 * length * math.sin(angle)
            f1 = f1 + 0.5 * torch.rand(1).item() * mouse(hx, hy, angle, 1.2, 1.2, 1.0)
        bg = 0.2 + 0.1 * torch.rand(1).item()
        x = torch.stack([f0, f1]) + bg + 0.12 * torch.randn(2, S, S)
        still = not (rear or groom or loco)
        y = torch.tensor([rear, groom, loco, still], dtype=torch.float)
        frames.append(x)
        labels.append(y)
    return torch.stack(frames), torch.stack(labels)


X_train, y_train = make_frames(200)
X_val, y_val = make_frames(400)
noise = torch.rand_like(y_train) < 0.2                                # annotation noise
y_train = torch.where(noise, 1 - y_train, y_train)


class FeatureExtractor(nn.Module):
    def __init__(self, n_behaviors=4, dropout=0.1):
        super().__init__()
        def blk(i, o):
            return nn.Sequential(nn.Conv2d(i, o, 3, padding=1), nn.BatchNorm2d(o), nn.ReLU(), nn.MaxPool2d(2))
        self.body = nn.Sequential(blk(2, 16), blk(16, 32), blk(32, 64))
        self.drop = nn.Dropout(dropout)
        self.fc = nn.Linear(64 * 3 * 3, n_behaviors)

    def forward(self, x):
        return self.fc(self.drop(self.body(x).flatten(1)))


def evaluate(model):
    model.eval()
    with torch.no_grad():
        logits = model(X_val)
        loss = F.binary_cross_entropy_with_logits(logits, y_val).item()
        acc = ((logits > 0).float() == y_val).float().mean().item()
    return loss, acc


model = FeatureExtractor()
optimizer = torch.optim.Adam(model.parameters(), lr=3e-3)
loader = DataLoader(TensorDataset(X_train, y_train), batch_size=32, shuffle=True)
for epoch in range(100):
    model.train()
    total = 0.0
    for xb, yb in loader:
        loss = F.binary_cross_entropy_with_logits(model(xb), yb)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        total += loss.item() * len(xb)
    val_loss, val_acc = evaluate(model)
    if epoch % 10 == 0:
        print(f"epoch {epoch} train {total / len(X_train):.4f} val {val_loss:.4f} acc {val_acc:.3f}")

val_loss, val_acc = evaluate(model)
print(f"final_loss={val_loss:.6g} acc={val_acc:.4f}")
