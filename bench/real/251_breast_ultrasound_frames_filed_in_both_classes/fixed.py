"""Breast-lesion ultrasound classifier -- fixed by cleaning the annotations as the maintainer agreed to
do: images that occur under both labels are detected (identical pixel rows) and dropped before
training, so every remaining image has one consistent label. Nothing else changed.
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

SIZE, FRAMES = 16, 8
yy, xx = torch.meshgrid(torch.arange(SIZE).float(), torch.arange(SIZE).float(), indexing="ij")


def videos(n):
    label = torch.randint(0, 2, (n,))
    centre = (8 + 1.5 * torch.randn(n, 2)).repeat_interleave(FRAMES, 0) + 0.4 * torch.randn(n * FRAMES, 2)
    r0 = (3 + 1.5 * torch.rand(n)).repeat_interleave(FRAMES)[:, None, None]
    spikes = torch.randint(5, 9, (n,)).float().repeat_interleave(FRAMES)[:, None, None]
    phase = (6.28 * torch.rand(n)).repeat_interleave(FRAMES)[:, None, None]
    lab = label.repeat_interleave(FRAMES)[:, None, None].float()
    dx = xx - centre[:, 0, None, None]
    dy = yy - centre[:, 1, None, None]
    ang = torch.atan2(dy, dx)
    radius = r0 + lab * 1.8 * torch.sin(spikes * ang + phase).clamp(min=0) + (1 - lab) * 0.3 * torch.cos(2 * ang)
    inside = torch.sigmoid((radius - torch.sqrt(dx ** 2 + dy ** 2)) * 2)
    img = 0.8 - 0.6 * inside + 0.15 * torch.randn(n * FRAMES, SIZE, SIZE) * (1 - 0.5 * inside)
    return img.unsqueeze(1), label.repeat_interleave(FRAMES), torch.arange(n).repeat_interleave(FRAMES)


def assemble(x, y, vid, n_videos):
    both = torch.randperm(n_videos)[: n_videos // 3]
    dup = torch.isin(vid, both)
    x, y = torch.cat([x, x[dup]]), torch.cat([y, 1 - y[dup]])
    flat = x.flatten(1)
    _, inverse, counts = torch.unique(flat, dim=0, return_inverse=True, return_counts=True)
    keep = counts[inverse] == 1
    return x[keep], y[keep]


x_all, y_all, vid_all = videos(160)
x_train, y_train = assemble(x_all, y_all, vid_all, 160)
x_test, y_test, _ = videos(60)

model = nn.Sequential(nn.Conv2d(1, 8, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2), nn.Conv2d(8, 16, 3, padding=1),
                      nn.ReLU(), nn.MaxPool2d(2), nn.Flatten(), nn.Linear(16 * 16, 32), nn.ReLU(), nn.Linear(32, 2))
opt = torch.optim.Adam(model.parameters(), lr=3e-3)
for step in range(150):
    loss = F.cross_entropy(model(x_train), y_train)
    opt.zero_grad()
    loss.backward()
    opt.step()
    if step % 50 == 0:
        print(f"step {step} train loss {loss.item():.4f}")

with torch.no_grad():
    train_loss = F.cross_entropy(model(x_train), y_train).item()
    acc = (model(x_test).argmax(1) == y_test).float().mean().item()
print(f"final_loss={train_loss:.6g} acc={acc:.4f}")
