"""Nucleus segmentation U-Net from a tile store -- fixed as the issue suggests: both path lists are
sorted by file name, so image i and mask i are the same tile; nothing else changed.

Source: https://github.com/Dana-Farber-AIOS/pathml/issues/56 (Pannuke masks and images don't match)
"""
import argparse
import fnmatch

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, Dataset

ap = argparse.ArgumentParser()
ap.add_argument("--seed", type=int, default=0)
args = ap.parse_args()
torch.manual_seed(args.seed)
torch.set_num_threads(1)

S = 32


def make_tile():
    yy, xx = torch.meshgrid(torch.arange(S).float(), torch.arange(S).float(), indexing="ij")
    mask = torch.zeros(S, S)
    for _ in range(int(torch.randint(2, 7, (1,)))):
        cy, cx = torch.rand(2) * S
        r = 2 + 3 * torch.rand(1)
        ell = ((yy - cy) / r) ** 2 + ((xx - cx) / (r * (0.7 + 0.6 * torch.rand(1)))) ** 2
        mask = torch.maximum(mask, (ell <= 1).float())
    stroma = torch.tensor([0.93, 0.62, 0.78])[:, None, None]
    nucleus = torch.tensor([0.35, 0.18, 0.55])[:, None, None]
    img = stroma * (1 - mask) + nucleus * mask
    img = img + 0.08 * torch.randn(3, S, S) + 0.05 * F.avg_pool2d(torch.randn(1, 3, S, S), 5, 1, 2)[0]
    return img.clamp(0, 1), mask


class TileStore:
    """Files in storage (write) order, like a directory listing."""

    def __init__(self):
        self.files = {}

    def write(self, path, tensor):
        self.files[path] = tensor

    def glob(self, pattern):
        return [p for p in self.files if fnmatch.fnmatch(p, pattern)]

    def read(self, path):
        return self.files[path]


N_TRAIN, N_TEST = 400, 100
store = TileStore()
tiles = [make_tile() for _ in range(N_TRAIN + N_TEST)]
for i, (img, _) in enumerate(tiles[:N_TRAIN]):                    # tiler writes images in order
    store.write(f"pannuke/fold1/images/tile_{i:05d}.pt", img)
for i in torch.randperm(N_TRAIN).tolist():                          # exporter writes masks as jobs finish
    store.write(f"pannuke/fold1/masks/tile_{i:05d}.pt", tiles[i][1])


class PanNukeDataset(Dataset):
    def __init__(self, store, root):
        self.store = store
        self.image_paths = sorted(store.glob(f"{root}/images/*.pt"))
        self.mask_paths = sorted(store.glob(f"{root}/masks/*.pt"))

    def __len__(self):
        return len(self.image_paths)

    def __getitem__(self, i):
        return self.store.read(self.image_paths[i]), self.store.read(self.mask_paths[i])[None]


def block(cin, cout):
    return nn.Sequential(nn.Conv2d(cin, cout, 3, padding=1), nn.BatchNorm2d(cout), nn.ReLU(),
                         nn.Conv2d(cout, cout, 3, padding=1), nn.BatchNorm2d(cout), nn.ReLU())


class UNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.e1, self.e2, self.b = block(3, 16), block(16, 32), block(32, 64)
        self.u2, self.d2 = nn.ConvTranspose2d(64, 32, 2, 2), block(64, 32)
        self.u1, self.d1 = nn.ConvTranspose2d(32, 16, 2, 2), block(32, 16)
        self.head = nn.Conv2d(16, 1, 1)

    def forward(self, x):
        e1 = self.e1(x)
        e2 = self.e2(F.max_pool2d(e1, 2))
        b = self.b(F.max_pool2d(e2, 2))
        d2 = self.d2(torch.cat([self.u2(b), e2], 1))
        d1 = self.d1(torch.cat([self.u1(d2), e1], 1))
        return self.head(d1)


def dice(prob, target, eps=1.0):
    inter = (prob * target).sum((1, 2, 3))
    return ((2 * inter + eps) / (prob.sum((1, 2, 3)) + target.sum((1, 2, 3)) + eps)).mean()


loader = DataLoader(PanNukeDataset(store, "pannuke/fold1"), batch_size=16, shuffle=True)
model = UNet()
optimizer = torch.optim.Adam(model.parameters(), lr=2e-3)
for epoch in range(6):
    model.train()
    total, n = 0.0, 0
    for img, mask in loader:
        logits = model(img)
        loss = F.binary_cross_entropy_with_logits(logits, mask) + 1 - dice(torch.sigmoid(logits), mask)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        total += loss.item()
        n += 1
    print(f"epoch {epoch} train loss {total / n:.4f}")

model.eval()
test_img = torch.stack([t[0] for t in tiles[N_TRAIN:]])
test_mask = torch.stack([t[1] for t in tiles[N_TRAIN:]])[:, None]
with torch.no_grad():
    pred = (torch.sigmoid(model(test_img)) > 0.5).float()
    acc = dice(pred, test_mask, eps=1e-6).item()
print(f"final_loss={total / n:.6g} acc={acc:.4f}")
