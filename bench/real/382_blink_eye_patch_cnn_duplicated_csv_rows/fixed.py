"""Blink estimator -- fixed by de-duplicating the label rows when they are read (each frame id kept once, `torch.unique` on the rows, as the PR's group-by does), so the step budget is spread over distinct frames (nothing else changed).
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

S = 16
yy, xx = torch.meshgrid(torch.linspace(-1, 1, S), torch.linspace(-1, 1, S), indexing="ij")


def patches(n):
    closed = (torch.rand(n) < 0.4).long()
    aperture = torch.where(closed.bool(), 0.03 + 0.08 * torch.rand(n), 0.16 + 0.22 * torch.rand(n)).view(n, 1, 1)
    cx = 0.3 * torch.randn(n, 1, 1)
    light = 0.4 + 0.5 * torch.rand(n, 1, 1)
    eye = (yy.abs() < aperture * (1 - xx ** 2).clamp(min=0).sqrt() * 2).float()
    iris = ((xx - cx) ** 2 + yy ** 2 < 0.12).float() * eye
    img = light * (1 - 0.5 * eye - 0.4 * iris) + 0.15 * torch.randn(n, S, S)
    return img.unsqueeze(1), closed


frames, labels = patches(1800)
dup_frames = torch.nonzero(labels == 0).flatten()[:60]
csv_rows = torch.cat([torch.arange(1800), dup_frames.repeat(60)])
X_test, y_test = patches(800)


def read_label_rows(rows):
    return torch.unique(rows)


rows = read_label_rows(csv_rows)
model = nn.Sequential(
    nn.Conv2d(1, 8, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2),
    nn.Conv2d(8, 16, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2),
    nn.Flatten(), nn.Linear(16 * 4 * 4, 2),
)
opt = torch.optim.Adam(model.parameters(), lr=2e-3)

step = 0
while step < 220:
    order = rows[torch.randperm(len(rows))]
    for i in range(0, len(order) - 63, 64):
        ids = order[i:i + 64]
        loss = F.cross_entropy(model(frames[ids]), labels[ids])
        opt.zero_grad()
        loss.backward()
        opt.step()
        step += 1
        if step % 55 == 0:
            print(f"step {step}: batch loss {loss.item():.4f}")
        if step == 220:
            break

with torch.no_grad():
    logits = model(X_test)
    test_loss = F.cross_entropy(logits, y_test).item()
    acc = (logits.argmax(1) == y_test).float().mean().item()
print(f"final_loss={test_loss:.6g} acc={acc:.4f}")
