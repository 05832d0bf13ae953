"""Image-inpainting network on document crops (per-image min-max normalization to [-1, 1], random free-form masks, gated-convolution encoder-decoder, L1 reconstruction, Adam lr 1e-3).

Fixed: the per-image range in the normalization is clamped away from zero (`(hi - lo).clamp(min=1e-6)`),
so uniform crops normalize to a constant image instead of 0/0 = NaN.
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

S = 24


def crops(n):
    img = 0.85 + 0.03 * torch.randn(n, 1, S, S)
    for i in range(n):
        for _ in range(int(torch.randint(2, 6, ()))):
            r = int(torch.randint(2, S - 2, ()))
            c0, c1 = sorted(torch.randint(0, S, (2,)).tolist())
            img[i, 0, r:r + 2, c0:c1 + 1] = 0.15
    blank = torch.rand(n) < 0.02
    img[blank] = 0.9
    return img


def normalize(img):
    lo = img.amin((1, 2, 3), keepdim=True)
    hi = img.amax((1, 2, 3), keepdim=True)
    return (img - lo) / (hi - lo).clamp(min=1e-6) * 2 - 1


def free_form_masks(n):
    m = torch.zeros(n, 1, S, S)
    for i in range(n):
        y, x = torch.randint(4, S - 4, (2,)).tolist()
        for _ in range(6):
            m[i, 0, max(y - 2, 0):y + 2, max(x - 2, 0):x + 2] = 1
            y = int(min(max(y + torch.randint(-3, 4, ()), 2), S - 3))
            x = int(min(max(x + torch.randint(-3, 4, ()), 2), S - 3))
    return m


class GatedConv(nn.Module):
    def __init__(self, cin, cout, dilation=1):
        super().__init__()
        self.conv = nn.Conv2d(cin, 2 * cout, 3, padding=dilation, dilation=dilation)

    def forward(self, x):
        feat, gate = self.conv(x).chunk(2, 1)
        return F.elu(feat) * torch.sigmoid(gate)


net = nn.Sequential(GatedConv(2, 12), GatedConv(12, 12, 2), GatedConv(12, 12, 4), nn.Conv2d(12, 1, 3, padding=1), nn.Tanh())
X_tr, X_te = normalize(crops(1000)), normalize(crops(300))
M_te = free_form_masks(300)
opt = torch.optim.Adam(net.parameters(), lr=1e-3)
for step in range(160):
    idx = torch.randint(0, len(X_tr), (32,))
    img, mask = X_tr[idx], free_form_masks(32)
    out = net(torch.cat([img * (1 - mask), mask], 1))
    loss = (out - img).abs().mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
    if step % 50 == 0:
        print(f"step {step} l1 {loss.item():.4f}")

with torch.no_grad():
    out = net(torch.cat([X_te * (1 - M_te), M_te], 1))
    hole_l1 = ((out - X_te).abs() * M_te).sum() / M_te.sum()
print(f"final_loss={hole_l1.item():.6g} acc={1 - hole_l1.item():.4f}")
