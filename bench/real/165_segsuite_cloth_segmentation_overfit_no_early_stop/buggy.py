"""Cloth-vs-background segmentation (small U-Net, per-pixel BCE, Adam) trained for a fixed 120 epochs on a small set of textured images with hand-drawn-style (noisy) masks and no early stopping: the training loss keeps falling while the network memorises the training images and their annotation noise, and the validation loss climbs well above its minimum.

Source: https://github.com/GeorgeSeif/Semantic-Segmentation-Suite/issues/168 (Training small custom dataset)
Report: "I created a small dataset of 1500 images with 2 classes ... a moving cloth with 5
different textures and very little background ... no matter which network I choose to train, after
some time training the loss starts to grow"; answer: "It's normal behavior when the model is
overfitting ... you can apply early stopping technique ... To avoid overfitting, you should
increase the number of data by data augmentation, decrease the learning rate or try with small
models." Reproduced with a compact U-Net (two down / two up stages with skip connections) on 24
training and 48 validation 32x32 images (a cloth blob in one of 5 textures over a textured
background; masks with random boundary jitter as from manual annotation), a DataLoader, Adam
lr 3e-3, 120 epochs; the script keeps the weights of the last epoch. The printed loss is the
validation BCE of the returned model, `acc` its validation pixel IoU.

expect: overfitting
symptom: final-loss-ratio 1.3
batch: 9
"""
import argparse
import copy

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset

ap = argparse.ArgumentParser()
ap.add_argument("--seed", type=int, default=0)
args = ap.parse_args()
torch.manual_seed(args.seed)
torch.set_num_threads(1)

S = 32
yy, xx = torch.meshgrid(torch.linspace(-1, 1, S), torch.linspace(-1, 1, S), indexing="ij")
angles = torch.atan2(yy, xx)


def texture(kind, n):
    f = 3 + 2 * kind
    ph = torch.rand(n, 1, 1) * 6.28
    t = torch.sin(f * (xx * torch.cos(ph) + yy * torch.sin(ph)) * 3 + ph)
    return 0.5 + 0.25 * t + 0.12 * torch.randn(n, S, S)


def make_set(n):
    r0 = 0.4 + 0.3 * torch.rand(n, 1, 1)
    wob = sum(0.1 * torch.rand(n, 1, 1) * torch.cos(k * angles + 6.28 * torch.rand(n, 1, 1)) for k in range(2, 5))
    cx, cy = 0.4 * (torch.rand(n, 1, 1) - 0.5), 0.4 * (torch.rand(n, 1, 1) - 0.5)
    rad = ((xx - cx) ** 2 + (yy - cy) ** 2).sqrt()
    true_mask = (rad < r0 + wob).float()
    kinds = torch.randint(0, 5, (n,))
    cloth = torch.stack([texture(int(k), 1)[0] for k in kinds])
    back = 0.45 + 0.2 * torch.sin(6 * xx + 3 * yy * torch.rand(n, 1, 1)) + 0.12 * torch.randn(n, S, S)
    img = true_mask * cloth + (1 - true_mask) * back
    jitter = 0.12 * torch.randn(n, 1, 1) + 0.06 * torch.randn(n, S, S)
    label = (rad < r0 + wob + jitter).float()       # annotation noise around the boundary
    return img.unsqueeze(1), label.unsqueeze(1)


def conv(i, o):
    return nn.Sequential(nn.Conv2d(i, o, 3, padding=1), nn.ReLU(), nn.Conv2d(o, o, 3, padding=1), nn.ReLU())


class UNet(nn.Module):
    def __init__(self, c=16):
        super().__init__()
        self.d1, self.d2, self.mid = conv(1, c), conv(c, 2 * c), conv(2 * c, 4 * c)
        self.u2, self.c2 = nn.ConvTranspose2d(4 * c, 2 * c, 2, 2), conv(4 * c, 2 * c)
        self.u1, self.c1 = nn.ConvTranspose2d(2 * c, c, 2, 2), conv(2 * c, c)
        self.out = nn.Conv2d(c, 1, 1)

    def forward(self, x):
        a = self.d1(x)
        b = self.d2(F.max_pool2d(a, 2))
        m = self.mid(F.max_pool2d(b, 2))
        b = self.c2(torch.cat([self.u2(m), b], 1))
        a = self.c1(torch.cat([self.u1(b), a], 1))
        return self.out(a)


train_x, train_y = make_set(24)
val_x, val_y = make_set(48)
loader = DataLoader(TensorDataset(train_x, train_y), batch_size=8, shuffle=True)
model = UNet()
optimizer = torch.optim.Adam(model.parameters(), lr=3e-3)
early_stopping = False
patience, best_val, best_state, bad_epochs = 15, float("inf"), None, 0


def validate(m):
    m.eval()
    with torch.no_grad():
        logits = m(val_x)
        loss = F.binary_cross_entropy_with_logits(logits, val_y).item()
        pred = logits > 0
        iou = ((pred & val_y.bool()).sum() / (pred | val_y.bool()).sum()).item()
    return loss, iou


for epoch in range(120):
    model.train()
    total = 0.0
    for x, y in loader:
        loss = F.binary_cross_entropy_with_logits(model(x), y)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        total += loss.item() * len(x)
    val_loss, val_iou = validate(model)
    if epoch % 15 == 0:
        print(f"epoch {epoch} train bce {total / len(train_x):.4f} val bce {val_loss:.4f} iou {val_iou:.3f}")
    if val_loss < best_val:
        best_val, best_state, bad_epochs = val_loss, copy.deepcopy(model.state_dict()), 0
    else:
        bad_epochs += 1
    if early_stopping and bad_epochs >= patience:
        print(f"early stop at epoch {epoch}")
        break

if early_stopping:
    model.load_state_dict(best_state)
val_loss, val_iou = validate(model)
print(f"final_loss={val_loss:.6g} acc={val_iou:.4f}")
