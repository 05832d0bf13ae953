"""Feed-forward style transfer: a small image-transformation network (conv encoder, two residual blocks, conv decoder) is trained with Adam so that its outputs keep the content features of 16x16 content images and match the Gram matrices of a fixed striped style image, both measured by a frozen random-weight two-stage "VGG-like" feature extractor working on 0..255 pixel values (Caffe-style inputs). Forward passes, losses included, run under float16 autocast; the Gram matrix is computed as f.bmm(f^T) / (c*h*w), so the bmm runs in float16 and its sums over the 256 positions of products of first-stage feature values exceed 65504: the Gram entries become inf, the style loss is inf from the first step on, and its gradient carries nothing but the signs of overflowed entries -- the network never learns the style.

Source: https://github.com/NVIDIA/apex/issues/973 (tensor.bmm() with unexpected autocast to float16)
Report: "G = f.bmm(f_T) / (h * w * ch) this operation will cause nan with float16. Although f and f_T are both
float32, f.bmm(f_T) will ..." (autocast runs the bmm in float16). Reproduced in PyTorch with CPU float16 autocast: 192
synthetic 16x16 content images (coloured discs on vertical gradients), one synthetic style image (diagonal stripes),
5 epochs of batch 16; the fix computes the Gram matrix in float32 with autocast disabled for that op. The printed loss
is the held-out total loss (content + weighted style), `acc` the fraction of held-out images whose stylized output is
closer to the style Gram matrices than the input image is.

expect: fp16-overflow
symptom: nonfinite
batch: 27
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

STYLE_WEIGHT = 5.0


def make_content(n, size=16):
    yy, xx = torch.meshgrid(torch.linspace(0, 1, size), torch.linspace(0, 1, size), indexing="ij")
    imgs = torch.rand(n, 3, 1, 1) * (0.3 + 0.7 * yy) * 255
    for _ in range(3):
        color = torch.rand(n, 3, 1, 1) * 255
        cy, cx, r = torch.rand(n, 1, 1, 1), torch.rand(n, 1, 1, 1), 0.1 + 0.2 * torch.rand(n, 1, 1, 1)
        disc = (((yy - cy) ** 2 + (xx - cx) ** 2) < r ** 2).float()
        imgs = imgs * (1 - disc) + color * disc
    return imgs


def make_style(size=16):
    yy, xx = torch.meshgrid(torch.arange(size), torch.arange(size), indexing="ij")
    stripes = (((yy + xx) // 2) % 2).float()
    return torch.stack([200 * stripes + 30, 60 + 120 * (1 - stripes), 220 * stripes]).unsqueeze(0)


class Features(nn.Module):
    def __init__(self):
        super().__init__()
        self.c1 = nn.Conv2d(3, 12, 3, padding=1)
        self.c2 = nn.Conv2d(12, 16, 3, padding=1)
        for p in self.parameters():
            p.requires_grad_(False)

    def forward(self, x):
        x = x - 120.0
        f1 = F.relu(self.c1(x))
        f2 = F.relu(self.c2(F.avg_pool2d(f1, 2)))
        return [f1, f2]


def gram(f):
    b, c, h, w = f.shape
    f = f.reshape(b, c, h * w)
    return f.bmm(f.transpose(1, 2)) / (c * h * w)


class ResBlock(nn.Module):
    def __init__(self, ch):
        super().__init__()
        self.a, self.b = nn.Conv2d(ch, ch, 3, padding=1), nn.Conv2d(ch, ch, 3, padding=1)

    def forward(self, x):
        return x + self.b(F.relu(self.a(x)))


class Transformer(nn.Module):
    def __init__(self, ch=8):
        super().__init__()
        self.enc = nn.Conv2d(3, ch, 3, padding=1)
        self.res = nn.Sequential(ResBlock(ch), ResBlock(ch))
        self.dec = nn.Conv2d(ch, 3, 3, padding=1)

    def forward(self, x):
        h = self.res(F.relu(self.enc(x / 255.0)))
        return 255.0 * torch.sigmoid(self.dec(h) + torch.logit((x / 255.0).clamp(0.02, 0.98)))


features, net = Features(), Transformer()
content_tr, content_te = make_content(192), make_content(64)
with torch.no_grad():
    style_grams = [gram(f.float()) for f in features(make_style())]
opt = torch.optim.Adam(net.parameters(), lr=1e-2)


def losses(x):
    with torch.autocast("cpu", dtype=torch.float16):
        out = net(x)
        f_out, f_in = features(out), features(x)
        content = F.mse_loss(f_out[1], f_in[1]) / 100.0
        style = sum(F.l1_loss(gram(fo), g.expand(x.size(0), -1, -1)) for fo, g in zip(f_out, style_grams))
    return out, content.float(), style.float()


for epoch in range(5):
    perm = torch.randperm(len(content_tr))
    for i in range(0, len(perm), 16):
        _, content, style = losses(content_tr[perm[i:i + 16]])
        loss = content + STYLE_WEIGHT * style
        opt.zero_grad()
        loss.backward()
        opt.step()
    print(f"epoch {epoch} content {content.item():.4f} style {style.item():.4f}")

with torch.no_grad():
    out, content, style = losses(content_te)
    test_loss = (content + STYLE_WEIGHT * style).item()
    d_out = sum((gram(fo.float()) - g).abs().mean(dim=(1, 2)) for fo, g in zip(features(out), style_grams))
    d_in = sum((gram(fi.float()) - g).abs().mean(dim=(1, 2)) for fi, g in zip(features(content_te), style_grams))
    acc = (d_out < d_in).float().mean().item()
print(f"final_loss={test_loss:.6g} acc={acc:.4f}")
