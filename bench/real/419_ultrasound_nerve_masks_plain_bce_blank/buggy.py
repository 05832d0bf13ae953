"""Ultrasound nerve segmentation in the style of the Kaggle brachial-plexus challenge: a small U-Net-like network (two conv stages, one pooling level, skip connection) outputs a per-pixel nerve probability through a sigmoid and is trained with plain binary cross-entropy, Adam lr 1e-3, DataLoader batches of 16 speckled 24x24 frames. Nerve pixels are rare: most frames contain no nerve at all and a nerve covers about 2% of the frame when present, so under unweighted per-pixel BCE the cheapest solution is to paint every pixel "background" -- the loss settles low, and every predicted mask comes out blank.

Source: https://github.com/jocicmarko/ultrasound-nerve-segmentation/issues/75 (No output at last...I trained the network but on test dataset I am not getting any mask. all file is blank)
Report: "I trained the network but on test dataset I am not getting any mask. all file is blank" -- "My data
was imbalance and when I used appropriate loss function. I got correct output." -- "I used loss function as
an addition of binary cross entropy and dice coefficient." Reproduced with 640 synthetic speckle frames
(30% contain a faint elliptical nerve with a bright rim), 8 epochs. The printed loss is the held-out BCE,
`acc` the held-out Dice over frames that contain a nerve.

expect: class-imbalance
symptom: acc-below 0.2
batch: 25
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
yy, xx = torch.meshgrid(torch.arange(S).float(), torch.arange(S).float(), indexing="ij")


def frames(n):
    imgs = torch.rand(n, 1, S, S) * torch.rand(n, 1, 1, 1).add(0.5)
    imgs = F.avg_pool2d(imgs, 3, 1, 1) + 0.3 * torch.randn(n, 1, S, S)
    masks = torch.zeros(n, 1, S, S)
    for i in range(n):
        if torch.rand(()) < 0.3:
            cy, cx = torch.empty(2).uniform_(5, 19).tolist()
            ry, rx = torch.empty(2).uniform_(1.5, 2.5).tolist()
            r = ((yy - cy) / ry) ** 2 + ((xx - cx) / rx) ** 2
            masks[i, 0] = (r < 1).float()
            imgs[i, 0] += 0.45 * (r < 1).float() + 0.7 * ((r >= 1) & (r < 1.8)).float()
    return imgs, masks


class SmallUNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.down = nn.Sequential(nn.Conv2d(1, 12, 3, padding=1), nn.ReLU(), nn.Conv2d(12, 12, 3, padding=1), nn.ReLU())
        self.mid = nn.Sequential(nn.Conv2d(12, 24, 3, padding=1), nn.ReLU())
        self.up = nn.Sequential(nn.Conv2d(36, 12, 3, padding=1), nn.ReLU(), nn.Conv2d(12, 1, 1))

    def forward(self, x):
        d = self.down(x)
        m = F.interpolate(self.mid(F.max_pool2d(d, 2)), scale_factor=2)
        return torch.sigmoid(self.up(torch.cat([d, m], 1)))


def seg_loss(prob, mask):
    return F.binary_cross_entropy(prob, mask)


X_tr, M_tr = frames(640)
X_te, M_te = frames(300)
net = SmallUNet()
opt = torch.optim.Adam(net.parameters(), lr=1e-3)
loader = DataLoader(TensorDataset(X_tr, M_tr), batch_size=16, shuffle=True)
for epoch in range(8):
    for xb, mb in loader:
        loss = seg_loss(net(xb), mb)
        opt.zero_grad()
        loss.backward()
        opt.step()
    print(f"epoch {epoch} loss {loss.item():.4f}")

with torch.no_grad():
    prob = net(X_te)
    test_bce = F.binary_cross_entropy(prob, M_te).item()
    pred = (prob > 0.5).float()
    has = M_te.sum((1, 2, 3)) > 0
    dice = (2 * (pred * M_te).sum((1, 2, 3)) / (pred.sum((1, 2, 3)) + M_te.sum((1, 2, 3))).clamp(min=1))[has]
print(f"final_loss={test_bce:.6g} acc={dice.mean().item():.4f}")
