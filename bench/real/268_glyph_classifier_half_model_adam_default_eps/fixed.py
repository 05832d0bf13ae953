"""Half-precision glyph classifier -- fixed as the PR does: Adam's eps is raised from 1e-8 to 1e-4,
a value float16 can represent, so the denominator sqrt(v) + eps no longer collapses to 0 when the
second moment underflows. Nothing else changed.
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

EPS = 1e-4
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
