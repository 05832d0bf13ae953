"""Image inpainting with partial convolutions (each layer convolves the masked input, rescales by
window_size / (number of valid pixels under the window + 1e-8) and zeroes positions whose window
saw no valid pixel; L1 loss on holes and valid pixels, Adam, DataLoader) trained under CPU autocast
with float16. Inside a hole larger than the kernel the valid-pixel count is 0, so the rescaling
factor is 9 / (0 + 1e-8) = 9e8 -- far above the float16 maximum of 65,504 (and 1e-8 itself is below
the smallest float16 subnormal), so it becomes inf, and inf times the zero update mask is NaN:
the forward pass outputs NaN inside every large hole and the loss is NaN from the first batch.

Source: https://github.com/jingyuanli001/RFR-Inpainting/issues/8 (FP16 training.)
Report: "Trying to train the model using the fp16 setting, but the model outputs `-inf`'s during the
forward pass." -- "I recommend changing this and this line [the partial convolution's mask-ratio
constant] to a number within the range of fp16. Fixed the issue for me (using APEX)". Reproduced
with 1,100 synthetic 24x24 RGB images (900 to train on, 200 held out; smooth random colour fields
plus stripes), one random rectangular hole of 5-10 pixels per side in each, three 3x3 partial-
convolution layers (3-16-16-3), Adam lr 2e-3, batches of 16, 4 epochs, forward and loss inside
torch.autocast("cpu", torch.float16). The printed loss is the mean training L1 of the last epoch,
`acc` the share of held-out hole pixels reconstructed within 0.1.

expect: fp16-overflow
symptom: nonfinite
batch: 12
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

EPS = 1e-8


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
