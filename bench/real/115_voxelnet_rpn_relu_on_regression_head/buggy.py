"""VoxelNet-style region proposal network whose final regression convolution is followed by ReLU: box residuals that should be negative are clamped to 0 and the units behind them get no gradient.

Source: https://github.com/tsinghua-rll/VoxelNet-tensorflow/issues/10 (RPN last layer)
Report: "I notice you use the relu layer for the last layer of RPN which predicts class score
and regression. However, as far as I know, the last layer of RPN should not use Relu. For
example, if you want to shrink your anchor, you must have some negative prediction in
regression."; the maintainer: "Many thanks for this issue. Fix at jeasinema/tf_voxelnet@a7a2729"
(the last ConvMD layers without activation). Reproduced with the repository's ConvMD(…, bn,
activation) building block and RPN shape (conv blocks on the bird's-eye-view feature map, then a
1x1 ConvMD to 2 anchor probabilities and a 1x1 ConvMD to 2 x 7 box residuals (dx, dy, dz, dl,
dw, dh, dθ), sigmoid + BCE on the probability map, smooth-L1 on the residuals of positive
anchors, Adam) on synthetic 16-channel BEV voxel-feature maps of 24 x 24 cells with cars whose
residuals are spread around zero; the printed loss is the validation regression loss, `acc` the
share of residuals of positive anchors predicted within 0.25 of the target.

expect: dead-relu
symptom: final-loss-ratio 2
batch: 6
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

C, H, W, A = 16, 24, 24, 2
mix = torch.randn(C, 2 * 7) / 4 ** 0.5


def make(n):
    """BEV maps: a car at ~6 % of (cell, anchor) slots; the voxel features there encode its residuals."""
    pos = torch.rand(n, A, H, W) < 0.06
    targets = 0.8 * torch.randn(n, A, 7, H, W)
    feat = 0.3 * torch.randn(n, C, H, W)
    code = torch.einsum("ck,nkhw->nchw", mix, (targets * pos.unsqueeze(2)).reshape(n, A * 7, H, W))
    feat = feat + code + 1.0 * pos.any(1, keepdim=True).float()
    return feat, pos.float(), targets


class ConvMD(nn.Module):
    def __init__(self, cin, cout, k, s, p, bn=True, activation=True):
        super().__init__()
        self.conv = nn.Conv2d(cin, cout, k, s, p)
        self.bn = nn.BatchNorm2d(cout) if bn else None
        self.activation = activation

    def forward(self, x):
        x = self.conv(x)
        if self.bn is not None:
            x = self.bn(x)
        return F.relu(x) if self.activation else x


class RPN(nn.Module):
    def __init__(self):
        super().__init__()
        self.block = nn.Sequential(ConvMD(C, 64, 3, 1, 1), ConvMD(64, 64, 3, 1, 1), ConvMD(64, 64, 1, 1, 0))
        self.prob_conv = ConvMD(64, A, 1, 1, 0, bn=False, activation=False)
        self.reg_conv = ConvMD(64, A * 7, 1, 1, 0, bn=True, activation=True)

    def forward(self, x):
        x = self.block(x)
        return torch.sigmoid(self.prob_conv(x)), self.reg_conv(x).view(x.size(0), A, 7, H, W)


def losses(prob, reg, pos, targets):
    cls_loss = F.binary_cross_entropy(prob, pos, weight=1.0 + 9.0 * pos)
    m = pos.bool().unsqueeze(2).expand_as(reg)
    reg_loss = F.smooth_l1_loss(reg[m], targets[m])
    return cls_loss, reg_loss


train, valid = make(600), make(150)
model = RPN()
optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
for epoch in range(8):
    model.train()
    perm = torch.randperm(len(train[0]))
    for i in range(0, len(perm), 16):
        feat, pos, targets = (t[perm[i:i + 16]] for t in train)
        prob, reg = model(feat)
        cls_loss, reg_loss = losses(prob, reg, pos, targets)
        loss = cls_loss + 2.0 * reg_loss
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    model.eval()
    with torch.no_grad():
        prob, reg = model(valid[0])
        v_cls, v_reg = losses(prob, reg, valid[1], valid[2])
        m = valid[1].bool().unsqueeze(2).expand_as(reg)
        acc = ((reg - valid[2]).abs()[m] < 0.25).float().mean().item()
    print(f"epoch {epoch} train cls {cls_loss.item():.4f} reg {reg_loss.item():.4f} | valid cls {v_cls.item():.4f} reg {v_reg.item():.4f} acc {acc:.4f}")
print(f"final_loss={v_reg.item():.6g} acc={acc:.4f}")
