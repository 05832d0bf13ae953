"""CNN on raw 0-255 pixels: every input gets the same prediction, the loss stays at chance.

Source: http://pullrequest.ru/10248037/cnn-keras-shodyatsya-odnomu-tomu-zhe-znacheniy-nezavisimo-vvoda
  (mirror of the Stack Overflow question "CNN in Keras converges to the same value regardless of the input")
Report: the CNN's predictions converge to one value whatever the input; answer: "you forgot to
normalise the images, x_train is in [0, 255]; this causes large gradient updates and stops
learning"; dividing by 255 fixes it.

expect: data-unnormalized
symptom: acc-below 0.6
"""
import argparse

import numpy as np
import torch
import torch.nn as nn

ap = argparse.ArgumentParser()
ap.add_argument("--seed", type=int, default=0)
args = ap.parse_args()
torch.manual_seed(args.seed)
rng = np.random.default_rng(args.seed)

# 4 classes of 16x16 grey images: a bright square in one quadrant on a noisy background
n = 2000
y_train = rng.integers(0, 4, n)
x_train = rng.integers(0, 120, (n, 1, 16, 16)).astype("float32")
for i, c in enumerate(y_train):
    r, q = divmod(int(c), 2)
    x_train[i, 0, r * 8:r * 8 + 8, q * 8:q * 8 + 8] += 135
x_train = torch.tensor(x_train)
y_train = torch.tensor(y_train)

model = nn.Sequential(
    nn.Conv2d(1, 16, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2),
    nn.Conv2d(16, 16, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2),
    nn.Flatten(), nn.Linear(16 * 16, 64), nn.ReLU(), nn.Linear(64, 4))
optimizer = torch.optim.SGD(model.parameters(), lr=0.01, momentum=0.9)
loss_fn = nn.CrossEntropyLoss()

losses = []
for epoch in range(3):
    perm = torch.randperm(n)
    for i in range(0, n, 64):
        idx = perm[i:i + 64]
        loss = loss_fn(model(x_train[idx]), y_train[idx])
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        losses.append(loss.item())

with torch.no_grad():
    acc = (model(x_train).argmax(1) == y_train).float().mean().item()
print(f"final_loss={np.mean(losses[-20:]):.6g} acc={acc:.4f}")
