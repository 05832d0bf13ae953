"""Fixed version of /buggy.py (the source and the report are in its docstring).

Fix: add a tiny constant inside log().
"""
import argparse

import torch
import torch.nn as nn

ap = argparse.ArgumentParser()
ap.add_argument("--seed", type=int, default=0)
args = ap.parse_args()
torch.manual_seed(args.seed)

S, G = 24, 4  # 24x24 images, 4x4 grid of 6x6 cells


def make_batch(n):
    img = 0.1 * torch.randn(n, 1, S, S)
    obj = (torch.rand(n, G, G) < 0.25).float()
    cls = torch.randint(0, 2, (n, G, G)).float()
    for b, i, j in obj.nonzero().tolist():
        size = 2 if cls[b, i, j] == 0 else 4
        y, x = i * 6 + 1, j * 6 + 1
        img[b, 0, y:y + size, x:x + size] += 1.0
    return img, obj, cls


class TinyYolo(nn.Module):
    def __init__(self):
        super().__init__()
        self.backbone = nn.Sequential(
            nn.Conv2d(1, 16, 3, padding=1), nn.LeakyReLU(0.1), nn.MaxPool2d(2),
            nn.Conv2d(16, 32, 3, padding=1), nn.LeakyReLU(0.1), nn.MaxPool2d(3),
            nn.Conv2d(32, 32, 3, padding=1), nn.LeakyReLU(0.1))
        self.head = nn.Conv2d(32, 2, 1)  # objectness logit, class logit per cell

    def forward(self, x):
        out = self.head(self.backbone(x))
        return torch.sigmoid(out[:, 0]), torch.sigmoid(out[:, 1])


def bce(p, y):
    return -(y * torch.log(p + 1e-9) + (1 - y) * torch.log(1 - p + 1e-9))


model = TinyYolo()
opt = torch.optim.Adam(model.parameters(), lr=2e-3)
losses = []
for it in range(200):
    img, obj, cls = make_batch(16)
    p_obj, p_cls = model(img)
    loss_obj = bce(p_obj, obj).sum() / img.shape[0]
    loss_cls = (bce(p_cls, cls) * obj).sum() / img.shape[0]
    loss = loss_obj + loss_cls
    opt.zero_grad()
    loss.backward()
    opt.step()
    losses.append(loss.item())
img, obj, cls = make_batch(200)
with torch.no_grad():
    p_obj, p_cls = model(img)
    acc = ((p_obj > 0.5).float() == obj).float().mean().item()
print(f"final_loss={sum(losses[-10:]) / 10:.6g} acc={acc:.4f}")
