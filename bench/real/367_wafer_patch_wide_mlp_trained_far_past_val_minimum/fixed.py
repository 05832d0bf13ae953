"""Wafer-inspection patch classifier -- fixed by stopping the wide MLP after 15 full-batch epochs, before the
validation loss reaches its minimum, instead of training it for 200 epochs into memorisation of the 400
training patches (early stopping as the trade-off between capacity and data; nothing else changed).
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

SIDE, CLASSES, EPOCHS, HIDDEN = 12, 4, 15, 512
yy, xx = torch.meshgrid(torch.arange(SIDE).float(), torch.arange(SIDE).float(), indexing="ij")


def make_patches(n, mislabel):
    y = torch.randint(0, CLASSES, (n,))
    cy, cx = 3 + 6 * torch.rand(n, 1, 1), 3 + 6 * torch.rand(n, 1, 1)
    r = ((yy - cy) ** 2 + (xx - cx) ** 2).sqrt()
    shapes = torch.stack([
        (((yy - cy) - (xx - cx)).abs() < 1.0).float(),   # scratch
        ((r - 2.5).abs() < 0.8).float(),                  # ring
        (r < 1.8).float(),                                # cluster
        (xx < 2).float().expand(n, SIDE, SIDE),           # edge
    ], dim=1)
    img = shapes[torch.arange(n), y] * (0.6 + 0.8 * torch.rand(n, 1, 1)) + 0.45 * torch.randn(n, SIDE, SIDE)
    flip = torch.rand(n) < mislabel
    y = torch.where(flip, torch.randint(0, CLASSES, (n,)), y)
    return img.reshape(n, -1), y


X_train, y_train = make_patches(400, mislabel=0.08)
X_val, y_val = make_patches(1000, mislabel=0.0)
model = nn.Sequential(nn.Linear(SIDE * SIDE, HIDDEN), nn.ReLU(), nn.Linear(HIDDEN, HIDDEN), nn.ReLU(),
                      nn.Linear(HIDDEN, CLASSES))
opt = torch.optim.Adam(model.parameters(), lr=1e-3)

for epoch in range(EPOCHS):
    loss = F.cross_entropy(model(X_train), y_train)
    opt.zero_grad()
    loss.backward()
    opt.step()
    if epoch % 10 == 9:
        with torch.no_grad():
            val = F.cross_entropy(model(X_val), y_val).item()
        print(f"epoch {epoch + 1} train loss {loss.item():.4f} val loss {val:.4f}")

with torch.no_grad():
    logits = model(X_val)
    val_loss = F.cross_entropy(logits, y_val).item()
    acc = (logits.argmax(1) == y_val).float().mean().item()
print(f"final_loss={val_loss:.6g} acc={acc:.4f}")
