"""Shelf-item box regressor -- fixed by checking the annotations when the training set is built and dropping records whose box does not lie inside the image (normalised coordinates outside [0, 1]), as the maintainer advised (nothing else changed).
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

S = 24
grid = torch.arange(S).float()


def crops(n):
    w = 5 + 10 * torch.rand(n)
    h = 5 + 10 * torch.rand(n)
    x1 = (S - w) * torch.rand(n)
    y1 = (S - h) * torch.rand(n)
    inside_x = (grid >= x1[:, None]) & (grid < (x1 + w)[:, None])
    inside_y = (grid >= y1[:, None]) & (grid < (y1 + h)[:, None])
    obj = (inside_y[:, :, None] & inside_x[:, None, :]).float()
    img = 0.8 * obj + 0.25 * torch.rand(n, S, S)
    boxes = torch.stack([x1, y1, x1 + w, y1 + h], 1) / S
    return img.flatten(1), boxes


X_train, B_train = crops(2400)
bad = torch.randperm(2400)[:6]
B_train[bad] = (5000 + 55000 * torch.rand(6, 4)) / S
X_test, B_test = crops(600)


def valid_boxes(boxes):
    return ((boxes >= 0) & (boxes <= 1)).all(1)


keep = valid_boxes(B_train)
loader = DataLoader(TensorDataset(X_train[keep], B_train[keep]), batch_size=32, shuffle=True)
model = nn.Sequential(nn.Linear(S * S, 128), nn.ReLU(), nn.Linear(128, 4))
opt = torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9)

for epoch in range(6):
    total, n = 0.0, 0
    for xb, bb in loader:
        loss = F.mse_loss(model(xb), bb)
        opt.zero_grad()
        loss.backward()
        opt.step()
        total += loss.item() * len(xb)
        n += len(xb)
    print(f"epoch {epoch}: train loss {total / n:.4g}")


def iou(a, b):
    lt = torch.max(a[:, :2], b[:, :2])
    rb = torch.min(a[:, 2:], b[:, 2:])
    inter = (rb - lt).clamp(min=0).prod(1)
    area = lambda z: (z[:, 2:] - z[:, :2]).clamp(min=0).prod(1)
    return inter / (area(a) + area(b) - inter + 1e-9)


with torch.no_grad():
    pred = model(X_test)
    test_loss = F.mse_loss(pred, B_test).item()
    acc = (iou(pred, B_test) > 0.5).float().mean().item()
print(f"final_loss={test_loss:.6g} acc={acc:.4f}")
