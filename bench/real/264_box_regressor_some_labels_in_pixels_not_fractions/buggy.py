"""Single-object box regressor (24x24 grey images with one bright object; an MLP predicts the box as
normalised centre-x, centre-y, width, height, all fractions of the image; smooth training with MSE and
Adam, minibatches sliced by hand). Part of the label files came from a second annotation tool that
wrote width and height in pixels of the 416-pixel original instead of as fractions, so about 4% of
the boxes have w, h of 40-300 while every other target lies in [0, 1]. With MSE those few extreme
targets dominate the loss and its gradient: the shared layers and the size outputs are dragged towards
them, and the boxes predicted for ordinary images are badly off -- the validation error on clean
labels is many times the error reached without the bad labels.

Source: https://github.com/AlexeyAB/darknet/issues/2064 (How would the net handle with the bbox in bad_label.list during training?)
Report: "There are some bboxes in my bad_label.list (width or height > 1.0). How would the net handle
with the bbox in bad_label.list during training? Should I remove these boxes in train dataset by
myself?" -- maintainer: "If you know that these width and height are correct, then just keep it
unchanged. Otherwise correct these boxes or remove it from training dataset." Reproduced with 4,000
synthetic images (a bright ellipse at a random position and size plus noise), 4% of the training
labels with w, h multiplied by 416, MLP 576-128-64-4, Adam lr 1e-3, batch 64, 8 epochs. The printed
loss is the validation MSE (x100) on 1,000 correctly labelled images, `acc` the validation fraction
of boxes with IoU > 0.5.

expect: data-outlier
symptom: final-loss-ratio 3
batch: 15
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

SIZE = 24
coords = (torch.arange(SIZE).float() + 0.5) / SIZE
yy, xx = torch.meshgrid(coords, coords, indexing="ij")


def images(n):
    w, h = 0.15 + 0.5 * torch.rand(n), 0.15 + 0.5 * torch.rand(n)
    cx = w / 2 + (1 - w) * torch.rand(n)
    cy = h / 2 + (1 - h) * torch.rand(n)
    inside = (((xx - cx[:, None, None]) / (w[:, None, None] / 2)) ** 2
              + ((yy - cy[:, None, None]) / (h[:, None, None] / 2)) ** 2) < 1
    img = inside.float() + 0.3 * torch.randn(n, SIZE, SIZE)
    return img.flatten(1), torch.stack([cx, cy, w, h], 1)


def load_labels(boxes):
    boxes = boxes.clone()
    second_tool = torch.rand(len(boxes)) < 0.04
    boxes[second_tool, 2:] *= 416
    return boxes


def usable(boxes):
    return torch.ones(len(boxes), dtype=torch.bool)


def iou(a, b):
    ax0, ay0, ax1, ay1 = a[:, 0] - a[:, 2] / 2, a[:, 1] - a[:, 3] / 2, a[:, 0] + a[:, 2] / 2, a[:, 1] + a[:, 3] / 2
    bx0, by0, bx1, by1 = b[:, 0] - b[:, 2] / 2, b[:, 1] - b[:, 3] / 2, b[:, 0] + b[:, 2] / 2, b[:, 1] + b[:, 3] / 2
    inter = (torch.min(ax1, bx1) - torch.max(ax0, bx0)).clamp(min=0) * (torch.min(ay1, by1) - torch.max(ay0, by0)).clamp(min=0)
    return inter / (a[:, 2] * a[:, 3] + b[:, 2] * b[:, 3] - inter)


x_train, clean_boxes = images(4000)
y_train = load_labels(clean_boxes)
keep = usable(y_train)
x_train, y_train = x_train[keep], y_train[keep]
x_val, y_val = images(1000)

model = nn.Sequential(nn.Linear(SIZE * SIZE, 128), nn.ReLU(), nn.Linear(128, 64), nn.ReLU(), nn.Linear(64, 4))
opt = torch.optim.Adam(model.parameters(), lr=1e-3)
BATCH = 64
for epoch in range(8):
    perm = torch.randperm(len(x_train))
    total = 0.0
    for i in range(0, len(x_train), BATCH):
        idx = perm[i:i + BATCH]
        loss = F.mse_loss(model(x_train[idx]), y_train[idx])
        opt.zero_grad()
        loss.backward()
        opt.step()
        total += loss.item() * len(idx)
    if epoch % 3 == 0:
        print(f"epoch {epoch} train mse {total / len(x_train):.4f}")

with torch.no_grad():
    pred = model(x_val)
    val_mse = F.mse_loss(pred, y_val).item()
    acc = (iou(pred, y_val) > 0.5).float().mean().item()
print(f"final_loss={100 * val_mse:.6g} acc={acc:.4f}")
