"""Fixed version of 17_mish_softplus_overflow/buggy.py (the source and the report are in its docstring).

Fix: mish with a numerically stable softplus (F.softplus).
"""
import argparse

import torch
import torch.nn as nn
import torch.nn.functional as F

ap = argparse.ArgumentParser()
ap.add_argument("--seed", type=int, default=0)
args = ap.parse_args()
torch.manual_seed(args.seed)


def mish(x):
    return x * torch.tanh(F.softplus(x))


class ConvBlock(nn.Module):
    def __init__(self, cin, cout):
        super().__init__()
        self.conv = nn.Conv2d(cin, cout, 3, padding=1)
        self.bn = nn.BatchNorm2d(cout)

    def forward(self, x):
        return mish(self.bn(self.conv(x)))


class TinyDetector(nn.Module):
    def __init__(self):
        super().__init__()
        self.stem = nn.Conv2d(1, 8, 3, padding=1)
        self.block = ConvBlock(8, 16)
        self.head = nn.Conv2d(16, 1, 1)

    def forward(self, x):
        return self.head(self.block(mish(self.stem(x))))


# 16-bit TIFF-like frames (0..65535) scaled by 1/255 as for 8-bit JPEGs: values up to ~257
imgs = torch.randint(0, 65536, (256, 1, 16, 16)).float() / 255.0
obj = torch.zeros(256, 1, 16, 16)
for i in range(256):
    r, c = torch.randint(2, 14, (2,))
    imgs[i, 0, r - 2:r + 2, c - 2:c + 2] = 257.0
    obj[i, 0, r - 2:r + 2, c - 2:c + 2] = 1.0

model = TinyDetector()
opt = torch.optim.Adam(model.parameters(), lr=1e-3)
losses = []
for step in range(80):
    idx = torch.randint(0, 256, (16,))
    loss = F.binary_cross_entropy_with_logits(model(imgs[idx]), obj[idx])
    opt.zero_grad()
    loss.backward()
    opt.step()
    losses.append(loss.item())
print(f"final_loss={sum(losses[-10:]) / 10:.6g} acc={0.0:.4f}")
