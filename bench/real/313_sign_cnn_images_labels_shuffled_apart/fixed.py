"""Traffic-sign classifier (a small CNN on 16x16 grey crops of 10 sign types) trained with hand-written mini-batching that reshuffles the training set every epoch.

Fixed: the images and the labels are now indexed with one shared permutation per epoch, so every
crop keeps its own label through the shuffle.
"""
import argparse

import torch
import torch.nn as nn
import torch.nn.functional as F

ap = argparse.ArgumentParser()
ap.add_argument("--seed", type=int, default=0)
args = ap.parse_args()
torch.manual_seed(args.seed)
torch.set_num_threads(1)

CLASSES, SIDE, BATCH, EPOCHS = 10, 16, 64, 6
glyphs = (torch.rand(CLASSES, 1, SIDE, SIDE) < 0.3).float()


def crops(n):
    y = torch.randint(0, CLASSES, (n,))
    light = 0.6 + 0.8 * torch.rand(n, 1, 1, 1)
    x = light * glyphs[y] + 0.45 * torch.randn(n, 1, SIDE, SIDE)
    return x, y


X_train, y_train = crops(4000)
X_test, y_test = crops(1000)

model = nn.Sequential(
    nn.Conv2d(1, 8, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2),
    nn.Conv2d(8, 16, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2),
    nn.Flatten(), nn.Linear(16 * 4 * 4, CLASSES),
)
opt = torch.optim.Adam(model.parameters(), lr=2e-3)

for epoch in range(EPOCHS):
    order = torch.randperm(len(X_train))
    X_train, y_train = X_train[order], y_train[order]
    model.train()
    running = 0.0
    for start in range(0, len(X_train), BATCH):
        xb, yb = X_train[start:start + BATCH], y_train[start:start + BATCH]
        loss = F.cross_entropy(model(xb), yb)
        opt.zero_grad()
        loss.backward()
        opt.step()
        running += loss.item() * len(xb)
    model.eval()
    with torch.no_grad():
        logits = model(X_test)
        test_loss = F.cross_entropy(logits, y_test).item()
        acc = (logits.argmax(1) == y_test).float().mean().item()
    print(f"epoch {epoch} train {running / len(X_train):.4f} test {test_loss:.4f} acc {acc:.3f}")

print(f"final_loss={test_loss:.6g} acc={acc:.4f}")
