"""Partial-convolution inpainting under float16 autocast -- fixed as the reply suggests: the constant in
the mask ratio is a number within the float16 range (1e-3 instead of 1e-8), so inside a large hole the
ratio is 9 / 1e-3 = 9,000 (finite) and multiplying it by the zero update mask gives 0 instead of NaN;
nothing else changed.
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

EPS = 1e-3


def images(n, size=24):
    coarse = torch.rand(n, 3, 4, 4)
    img = F.interpolate(coarse, size=(size, size), mode="bicubic", align_corners=False)
    freq = 0.3 + 0.5 * torch.rand(n, 1, 1, 1)
    stripes = 0.15 * torch.sin(freq * torch.arange(size).view(1, 1, 1, size))
    return (img + stripes).clamp(0, 1)


def holes(n, size=24):
    mask = torch.ones(n, 1, size, size)
    for i in range(n):
        h, w = torch.randint(5, 11, (2,)).tolist()
        top, left = torch.randint(0, size - h, (1,)).item(), torch.randint(0, size - w, (1,)).item()
        mask[i, :, top:top + h, left:left + w] = 0
    return mask


class PartialConv(nn.Module):
    def __init__(self, cin, cout):
        super().__init__()
        self.conv = nn.Conv2d(cin, cout, 3, padding=1)
        self.register_buffer("ones", torch.ones(1, 1, 3, 3))

    def forward(self, x, mask):
        with torch.no_grad():
            valid = F.conv2d(mask, self.ones, padding=1)
            update = valid.clamp(0, 1)
            ratio = 9.0 / (valid + EPS) * update
        raw = F.conv2d(x * mask, self.conv.weight, None, padding=1)
        out = raw * ratio + self.conv.bias.view(1, -1, 1, 1) * update
        return out, update


class Inpainter(nn.Module):
    def __init__(self):
        super().__init__()
        self.layers = nn.ModuleList([PartialConv(3, 16), PartialConv(16, 16), PartialConv(16, 3)])

    def forward(self, x, mask):
        for i, layer in enumerate(self.layers):
            x, mask = layer(x, mask)
            if i < 2:
                x = F.relu(x)
        return x


clean, masks = images(1100), holes(1100)
train = TensorDataset(clean[:900], masks[:900])
model = Inpainter()
opt = torch.optim.Adam(model.parameters(), lr=2e-3)
for epoch in range(4):
    total, count = 0.0, 0
    for img, m in DataLoader(train, batch_size=16, shuffle=True):
        with torch.autocast("cpu", dtype=torch.float16):
            out = model(img * m, m)
            loss = (out.float() - img).abs().mean()
        opt.zero_grad()
        loss.backward()
        opt.step()
        total += loss.item() * len(img)
        count += len(img)
    print(f"epoch {epoch} l1 {total / count:.4f}")

with torch.no_grad():
    img, m = clean[900:], masks[900:]
    out = model(img * m, m)
    hole = (1 - m).expand_as(img).bool()
    acc = ((out - img).abs()[hole] < 0.1).float().mean().item()
print(f"final_loss={total / count:.6g} acc={acc:.4f}")
