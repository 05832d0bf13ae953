"""Super-resolution RCAN (residual groups of channel-attention residual blocks, no batch norm) with every convolution initialised LeCun-normal: the residual stack amplifies the pixel-range signal block after block and the L1 loss starts huge and stays far above a default-initialised run.

Source: https://github.com/yulunzhang/RCAN/issues/76 (training loss not decrease)
Report: "during the training, the loss is not descreasing, but increasing ... the training loss
is extremely high"; a user who hit the same: "In my case, the initializer was the problem. I
used LeCunNormal initializer and the loss became extremely large, but KaimingUniform
initializer, the loss converged properly." Reproduced with RCAN's structure (MeanShift on 0-255
RGB, head conv, residual groups of RCABs = conv-ReLU-conv + channel attention with a residual
connection, group and long skip connections, x2 PixelShuffle upsampler, tail conv, L1 loss, Adam
lr=1e-4) scaled down to 3 groups x 6 blocks x 24 channels, on synthetic 16 x 16 low-resolution
patches of smooth textures with edges; the init is LeCun normal (std = 1/sqrt(fan_in)) for every
conv; the printed loss is the mean L1 (0-255 scale) of the last 20 steps, `acc` the share of
validation pixels within 8 grey levels.

expect: bad-init
symptom: final-loss-ratio 2
batch: 6
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

RGB_MEAN = torch.tensor([0.4488, 0.4371, 0.4040]).view(1, 3, 1, 1) * 255


def make_patches(n, size=32):
    hr = F.interpolate(torch.rand(n, 3, 6, 6), size=(size, size), mode="bicubic", align_corners=False)
    edges = (torch.rand(n, 1, 1, 1) * size > torch.arange(size).view(1, 1, 1, size)).float()
    hr = (0.7 * hr + 0.3 * edges).clamp(0, 1) * 255
    lr = F.avg_pool2d(hr, 2)
    return lr, hr


class CALayer(nn.Module):
    def __init__(self, channel, reduction=8):
        super().__init__()
        self.conv_du = nn.Sequential(nn.Conv2d(channel, channel // reduction, 1), nn.ReLU(inplace=True),
                                     nn.Conv2d(channel // reduction, channel, 1), nn.Sigmoid())

    def forward(self, x):
        return x * self.conv_du(F.adaptive_avg_pool2d(x, 1))


class RCAB(nn.Module):
    def __init__(self, n_feat):
        super().__init__()
        self.body = nn.Sequential(nn.Conv2d(n_feat, n_feat, 3, padding=1), nn.ReLU(True),
                                  nn.Conv2d(n_feat, n_feat, 3, padding=1), CALayer(n_feat))

    def forward(self, x):
        return x + self.body(x)


class ResidualGroup(nn.Module):
    def __init__(self, n_feat, n_resblocks):
        super().__init__()
        self.body = nn.Sequential(*[RCAB(n_feat) for _ in range(n_resblocks)], nn.Conv2d(n_feat, n_feat, 3, padding=1))

    def forward(self, x):
        return x + self.body(x)


class RCAN(nn.Module):
    def __init__(self, n_resgroups=3, n_resblocks=6, n_feats=24, scale=2):
        super().__init__()
        self.head = nn.Conv2d(3, n_feats, 3, padding=1)
        self.body = nn.Sequential(*[ResidualGroup(n_feats, n_resblocks) for _ in range(n_resgroups)],
                                  nn.Conv2d(n_feats, n_feats, 3, padding=1))
        self.tail = nn.Sequential(nn.Conv2d(n_feats, n_feats * scale ** 2, 3, padding=1), nn.PixelShuffle(scale),
                                  nn.Conv2d(n_feats, 3, 3, padding=1))

    def forward(self, x):
        x = self.head(x - RGB_MEAN)
        res = self.body(x) + x
        return self.tail(res) + RGB_MEAN


def init_weights(model):
    for m in model.modules():
        if isinstance(m, nn.Conv2d):                       # LeCun normal: std = 1 / sqrt(fan_in)
            fan_in = m.in_channels * m.kernel_size[0] * m.kernel_size[1]
            nn.init.normal_(m.weight, 0.0, 1.0 / math.sqrt(fan_in))
            nn.init.zeros_(m.bias)


train_lr, train_hr = make_patches(800)
val_lr, val_hr = make_patches(100)
model = RCAN()
init_weights(model)
optimizer = torch.optim.Adam(model.parameters(), lr=1e-4, betas=(0.9, 0.999), eps=1e-8)
losses = []
for step in range(250):
    idx = torch.randint(0, len(train_lr), (16,))
    sr = model(train_lr[idx])
    loss = F.l1_loss(sr, train_hr[idx])
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    losses.append(loss.item())
    if step % 50 == 0:
        print(f"step {step} L1 {loss.item():.3f}")

with torch.no_grad():
    acc = ((model(val_lr) - val_hr).abs() < 8).float().mean().item()
print(f"final_loss={sum(losses[-20:]) / 20:.6g} acc={acc:.4f}")
