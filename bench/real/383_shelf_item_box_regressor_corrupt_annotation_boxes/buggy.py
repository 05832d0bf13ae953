"""Single-object localiser for shelf photos (a 24x24 grey crop in, the item's box out as (x1, y1, x2, y2) in pixel units divided by the image size; an MLP 576 -> 128 ReLU -> 4, MSE, SGD lr 0.05 momentum 0.9, DataLoader batches of 32, 6 epochs). A handful of annotation records are corrupt -- the labelling tool wrote raw sensor coordinates or a sentinel instead of pixel positions, boxes in the tens of thousands of pixels -- and nothing checks that a box lies inside its image. Whenever a batch contains one of them, the squared error on that box is millions of times the normal loss, the update throws the regressor's weights far away, and the loss on the clean images does not come back down.

Source: https://github.com/open-mmlab/mmdetection/issues/2061 (Random Loss increase between epochs)
Report: "I am using this on my own custom dataset but, I am getting random loss spikes. Sometimes these spikes
result in a continuous increase in loss ... loss_bbox: 19717618161418.3047, loss: 317441248681001.1875" --
maintainer: "You might need to check your dataset; there might be some bug samples since it appears
regularly." Reproduced with 2,400 synthetic crops (a bright rectangle of random position and size on a
textured background, box normalised to [0, 1]) of which 6 carry box coordinates between 5,000 and 60,000
pixels. The printed loss is the box MSE on 600 clean held-out crops, `acc` the fraction of held-out boxes
whose IoU with the truth is above 0.5.

expect: data-outlier
symptom: final-loss-ratio 5
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
    return torch.ones(len(boxes), dtype=torch.bool)


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
