"""Single-object box regressor (a small CNN predicting the normalised centre, width and height of the one rectangle in each image) written as a DETR-style Trainer class: forward, L1 box loss, backward, gradient-norm clipping, SGD-with-momentum step. The training step never clears the gradients, so each `.grad` is the running sum of every gradient since the start; clipping then rescales that ever-growing sum, and the update direction is dominated by stale gradients from hundreds of steps ago, so the box error stalls far above what the same model reaches.

Source: https://github.com/IDEA-Research/DN-DETR/issues/19 (need zero_grad)
Report: "It looks like you forgot optimizer.zero_grad(). ... As far as I understand, new gradients are
produced first, and then the clip comes, i.e. at each step you accumulate all gradients which were
previously calculated." Reproduced with 4,000 synthetic 32x32 images holding one noisy filled
rectangle, a 3-conv + MLP regressor, SGD lr 0.05 momentum 0.9, clip_grad_norm_ at 1.0, 6 epochs of batches of
64 through a Trainer class whose step omits zero_grad. The printed loss is the mean L1 box error on
1,000 held-out images, `acc` the fraction of held-out boxes with IoU above 0.5.

expect: missing-zero-grad
symptom: final-loss-ratio 2
batch: 18
"""
import argparse

import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset

ap = argparse.ArgumentParser()
ap.add_argument("--seed", type=int, default=0)
args = ap.parse_args()
torch.manual_seed(args.seed)
torch.set_num_threads(1)

S = 32
grid = torch.arange(S).float()


def boxes_dataset(n):
    w = 0.15 + 0.5 * torch.rand(n)
    h = 0.15 + 0.5 * torch.rand(n)
    cx = w / 2 + (1 - w) * torch.rand(n)
    cy = h / 2 + (1 - h) * torch.rand(n)
    x0, x1 = ((cx - w / 2) * S)[:, None], ((cx + w / 2) * S)[:, None]
    y0, y1 = ((cy - h / 2) * S)[:, None], ((cy + h / 2) * S)[:, None]
    inx = ((grid[None] >= x0) & (grid[None] < x1)).float()
    iny = ((grid[None] >= y0) & (grid[None] < y1)).float()
    img = iny[:, :, None] * inx[:, None, :]
    img = img + 0.3 * torch.randn(n, S, S)
    return img.unsqueeze(1), torch.stack([cx, cy, w, h], 1)


def iou(a, b):
    a0, a1 = a[:, :2] - a[:, 2:] / 2, a[:, :2] + a[:, 2:] / 2
    b0, b1 = b[:, :2] - b[:, 2:] / 2, b[:, :2] + b[:, 2:] / 2
    inter = (torch.min(a1, b1) - torch.max(a0, b0)).clamp(min=0).prod(1)
    return inter / (a[:, 2:].prod(1) + b[:, 2:].prod(1) - inter)


class Trainer:
    def __init__(self, model, lr=0.05, max_norm=1.0):
        self.model = model
        self.opt = torch.optim.SGD(model.parameters(), lr=lr, momentum=0.9, weight_decay=1e-4)
        self.max_norm = max_norm
        self.crit = nn.L1Loss()

    def train_step(self, images, targets):
        pred = self.model(images)
        loss = self.crit(pred, targets)
        loss.backward()
        nn.utils.clip_grad_norm_(self.model.parameters(), self.max_norm)
        self.opt.step()
        return loss.item()

    @torch.no_grad()
    def evaluate(self, images, targets):
        pred = self.model(images)
        return self.crit(pred, targets).item(), (iou(pred, targets) > 0.5).float().mean().item()


Xtr, Btr = boxes_dataset(4000)
Xte, Bte = boxes_dataset(1000)
model = nn.Sequential(
    nn.Conv2d(1, 16, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2),
    nn.Conv2d(16, 32, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2),
    nn.Conv2d(32, 32, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2),
    nn.Flatten(), nn.Linear(32 * 4 * 4, 64), nn.ReLU(), nn.Linear(64, 4), nn.Sigmoid(),
)
trainer = Trainer(model)
loader = DataLoader(TensorDataset(Xtr, Btr), batch_size=64, shuffle=True)
for epoch in range(6):
    model.train()
    losses = [trainer.train_step(x, b) for x, b in loader]
    model.eval()
    val, acc = trainer.evaluate(Xte, Bte)
    print(f"epoch {epoch} train_l1 {sum(losses) / len(losses):.4f} val_l1 {val:.4f} iou50 {acc:.3f}")

print(f"final_loss={val:.6g} acc={acc:.4f}")
