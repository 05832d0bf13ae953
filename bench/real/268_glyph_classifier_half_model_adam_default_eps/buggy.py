"""Glyph classifier (small CNN on 16x16 grayscale glyphs, 8 classes) converted wholesale to float16
-- model.half(), half inputs, Adam stepping directly on the half parameters -- with Adam's default
eps=1e-8. In float16 1e-8 is below the smallest subnormal and rounds to exactly 0, and the
second-moment update (1 - beta2) * g^2 underflows to 0 for every gradient smaller than about 5e-3,
so Adam divides a non-zero first moment by sqrt(0) + 0: the update is infinite, the weights become
inf/NaN after the first steps and so does the loss.

Source: https://github.com/afiaka87/glide-finetune/pull/6 (Fixed half precision optimizer bug)
Report: "In half precision, after the first iteration nan values start appearing regardless of input
data or gradients since the adam optimizer breaks in float16 ... This can be fixed by setting the
eps variable to 1e-4 instead of the default 1e-8." Reproduced with 3,000 synthetic glyph images
(8 random stroke templates, random shifts and pixel noise), a 2-conv CNN converted with .half(),
Adam(lr 1e-3) on the half parameters, batch 64, 3 epochs. The printed loss is the mean training
loss of the last epoch, `acc` the accuracy on 800 held-out glyphs.

expect: fp16-underflow
symptom: nonfinite
batch: 16
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
templates = torch.zeros(8, 20, 20)
for k in range(8):
    for _ in range(3):
        r0, c0 = torch.randint(2, 18, (2,)).tolist()
        dr, dc = torch.randint(-1, 2, (2,)).tolist()
        for s in range(9):
            r, c = r0 + dr * s, c0 + dc * s
            if 0 <= r < 20 and 0 <= c < 20:
                templates[k, r, c] = 1.0


def make_glyphs(n):
    y = torch.randint(0, 8, (n,))
    imgs = torch.empty(n, 1, 16, 16)
    for i in range(n):
        dy, dx = torch.randint(0, 5, (2,)).tolist()
        imgs[i, 0] = templates[y[i], dy:dy + 16, dx:dx + 16]
    return (imgs + 0.3 * torch.randn_like(imgs)).clamp(0, 1), y


X_train, y_train = make_glyphs(3000)
X_test, y_test = make_glyphs(800)

model = nn.Sequential(
    nn.Conv2d(1, 8, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2),
    nn.Conv2d(8, 16, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2),
    nn.Flatten(), nn.Linear(16 * 16, 8),
).half()
opt = torch.optim.Adam(model.parameters(), lr=1e-3, eps=EPS)
loader = DataLoader(TensorDataset(X_train, y_train), batch_size=64, shuffle=True)

for epoch in range(3):
    total, n = 0.0, 0
    for xb, yb in loader:
        logits = model(xb.half())
        loss = F.cross_entropy(logits.float(), yb)
        opt.zero_grad()
        loss.backward()
        opt.step()
        total += loss.item() * len(xb)
        n += len(xb)
    print(f"epoch {epoch} loss {total / n:.4f}")

with torch.no_grad():
    acc = (model(X_test.half()).float().argmax(1) == y_test).float().mean().item()
print(f"final_loss={total / n:.6g} acc={acc:.4f}")
