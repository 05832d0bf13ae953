"""2-D U-Net segmentation (nnU-Net-style encoder-decoder with skips, Dice + cross-entropy loss, SGD with Nesterov momentum and poly learning-rate decay, a fixed number of iterations per epoch) trained on only 88 images without augmentation: the training loss keeps falling while the validation loss turns around and ends far above that of the same run on the augmented set.

Source: https://github.com/MIC-DKFZ/nnUNet/issues/2715 (Validation loss less than train loss)
Report: "I am implementing nnUNet with small dataset (88 images), and is overfitting. So I
augmented the dataset to 880 and trained again. Now plot is ok" (the follow-up asks why the
validation loss is now even below the training loss, and whether that comes from the
augmentation applied to the training batches only). Reproduced with nnU-Net's training recipe
in miniature (a 3-stage 2-D U-Net with instance norm and leaky ReLU, deep features of 16-64
channels, DC + CE loss, SGD lr 0.01 momentum 0.99 Nesterov with poly decay, batches sampled from
the training cases for a fixed number of iterations) on 88 synthetic 40 x 40 microscopy-like
images (textured background, bright-rimmed target cells and look-alike debris to be left out,
strong noise) and 60 validation images; the training set is the raw 88 cases. The printed loss
is the validation DC + CE loss after the last epoch, `acc` the validation foreground Dice.

expect: overfitting
symptom: final-loss-ratio 1.3
batch: 7
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

S = 40
AUGMENT_TO = 0  # 0 = train on the raw cases only


def make_cases(n):
    yy, xx = torch.meshgrid(torch.arange(S).float(), torch.arange(S).float(), indexing="ij")
    imgs, segs = torch.zeros(n, 1, S, S), torch.zeros(n, S, S, dtype=torch.long)
    for k in range(n):
        img = 0.3 * F.interpolate(torch.rand(1, 1, 6, 6), size=(S, S), mode="bilinear", align_corners=False)[0, 0]
        for j in range(int(torch.randint(3, 7, (1,)))):
            cy, cx = torch.randint(6, S - 6, (2,)).float().tolist()
            ry, rx = (3 + 4 * torch.rand(2)).tolist()
            r = ((yy - cy) / ry) ** 2 + ((xx - cx) / rx) ** 2
            cell = j % 2 == 0
            if cell:  # bright rim, darker core
                img = img + 0.6 * ((r < 1) & (r > 0.45)).float() + 0.25 * (r <= 0.45).float()
                segs[k][r < 1] = 1
            else:  # debris: uniformly bright, no rim
                img = img + 0.5 * (r < 1).float()
        imgs[k, 0] = img + 0.35 * torch.randn(S, S)
    return imgs, segs


def augment(imgs, segs, total):
    """Offline augmentation: flips, 90-degree rotations, intensity scaling and fresh noise."""
    out_i, out_s = [imgs], [segs]
    while sum(len(a) for a in out_i) < total:
        k = int(torch.randint(0, 4, (1,)))
        i, s = torch.rot90(imgs, k, (2, 3)), torch.rot90(segs, k, (1, 2))
        if torch.rand(1).item() < 0.5:
            i, s = i.flip(3), s.flip(2)
        i = i * (0.8 + 0.4 * torch.rand(len(i), 1, 1, 1)) + 0.15 * torch.randn_like(i)
        out_i.append(i)
        out_s.append(s)
    return torch.cat(out_i)[:total], torch.cat(out_s)[:total]


def conv_block(cin, cout):
    return nn.Sequential(nn.Conv2d(cin, cout, 3, padding=1), nn.InstanceNorm2d(cout, affine=True), nn.LeakyReLU(0.01),
                         nn.Conv2d(cout, cout, 3, padding=1), nn.InstanceNorm2d(cout, affine=True), nn.LeakyReLU(0.01))


class UNet2D(nn.Module):
    def __init__(self):
        super().__init__()
        self.e1, self.e2, self.e3 = conv_block(1, 16), conv_block(16, 32), conv_block(32, 64)
        self.up2, self.d2 = nn.ConvTranspose2d(64, 32, 2, 2), conv_block(64, 32)
        self.up1, self.d1 = nn.ConvTranspose2d(32, 16, 2, 2), conv_block(32, 16)
        self.out = nn.Conv2d(16, 2, 1)

    def forward(self, x):
        a = self.e1(x)
        b = self.e2(F.max_pool2d(a, 2))
        c = self.e3(F.max_pool2d(b, 2))
        d = self.d2(torch.cat([self.up2(c), b], 1))
        return self.out(self.d1(torch.cat([self.up1(d), a], 1)))


def dc_ce_loss(logits, target):
    ce = F.cross_entropy(logits, target)
    p = logits.softmax(1)[:, 1]
    t = (target == 1).float()
    dice = (2 * (p * t).sum() + 1e-5) / (p.sum() + t.sum() + 1e-5)
    return ce + (1 - dice), dice


train_imgs, train_segs = make_cases(88)
val_imgs, val_segs = make_cases(60)
model = UNet2D()
if AUGMENT_TO:
    train_imgs, train_segs = augment(train_imgs, train_segs, AUGMENT_TO)
optimizer = torch.optim.SGD(model.parameters(), lr=0.01, momentum=0.99, nesterov=True, weight_decay=3e-5)
epochs, iters_per_epoch = 12, 25
for epoch in range(epochs):
    model.train()
    for g in optimizer.param_groups:
        g["lr"] = 0.01 * (1 - epoch / epochs) ** 0.9
    for it in range(iters_per_epoch):
        idx = torch.randint(0, len(train_imgs), (12,))
        loss, _ = dc_ce_loss(model(train_imgs[idx]), train_segs[idx])
        optimizer.zero_grad()
        loss.backward()
        torch.nn.utils.clip_grad_norm_(model.parameters(), 12)
        optimizer.step()
    model.eval()
    with torch.no_grad():
        val_loss, val_dice = dc_ce_loss(model(val_imgs), val_segs)
    print(f"epoch {epoch} train_loss {loss.item():.4f} val_loss {val_loss.item():.4f} val_dice {val_dice.item():.4f}")
print(f"final_loss={val_loss.item():.6g} acc={val_dice.item():.4f}")
