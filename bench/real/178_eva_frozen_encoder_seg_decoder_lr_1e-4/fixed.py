"""eva-style frozen-encoder segmentation -- fixed as in the PR: the decoder's learning rate is 2e-3
instead of 1e-4 (nothing else changed).
"""
import argparse
import math

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset

ap = argparse.ArgumentParser()
ap.add_argument("--seed", type=int, default=0)
args = ap.parse_args()
torch.manual_seed(args.seed)
torch.set_num_threads(1)

SIZE, NUM_CLASSES = 48, 3


def make_tiles(n):
    yy, xx = torch.meshgrid(torch.arange(SIZE).float(), torch.arange(SIZE).float(), indexing="ij")
    imgs = torch.zeros(n, 3, SIZE, SIZE)
    masks = torch.zeros(n, SIZE, SIZE, dtype=torch.long)
    stroma = torch.tensor([0.92, 0.62, 0.75]).view(3, 1, 1)
    nucleus = {1: torch.tensor([0.35, 0.20, 0.55]), 2: torch.tensor([0.45, 0.25, 0.60])}
    for i in range(n):
        img = stroma + 0.05 * F.avg_pool2d(torch.randn(1, 3, SIZE, SIZE), 5, 1, 2)[0]
        mask = torch.zeros(SIZE, SIZE, dtype=torch.long)
        for _ in range(int(torch.randint(4, 10, (1,)))):
            cls = int(torch.randint(1, 3, (1,)))
            cy, cx = (torch.rand(2) * SIZE).tolist()
            if cls == 1:
                a = b = 2.0 + float(torch.rand(1))
                theta = 0.0
            else:
                a, b = 5.0 + 2 * float(torch.rand(1)), 2.0 + 0.5 * float(torch.rand(1))
                theta = float(torch.rand(1)) * math.pi
            dy, dx = yy - cy, xx - cx
            u = dx * math.cos(theta) + dy * math.sin(theta)
            v = -dx * math.sin(theta) + dy * math.cos(theta)
            inside = (u / a) ** 2 + (v / b) ** 2 <= 1
            img = torch.where(inside, nucleus[cls].view(3, 1, 1), img)
            mask[inside] = cls
        imgs[i] = img + 0.04 * torch.randn(3, SIZE, SIZE)
        masks[i] = mask
    return (imgs - 0.6) / 0.25, masks


class ResBlock(nn.Module):
    def __init__(self, c):
        super().__init__()
        self.conv1, self.conv2 = nn.Conv2d(c, c, 3, 1, 1), nn.Conv2d(c, c, 3, 1, 1)
        self.norm1, self.norm2 = nn.BatchNorm2d(c), nn.BatchNorm2d(c)

    def forward(self, x):
        return F.relu(x + self.norm2(self.conv2(F.relu(self.norm1(self.conv1(x))))))


class Encoder(nn.Module):
    """Stand-in for the frozen foundation-model backbone: patch-4 stem + residual blocks."""

    def __init__(self, dim=48):
        super().__init__()
        self.stem = nn.Conv2d(3, dim, 4, 4)
        self.blocks = nn.Sequential(ResBlock(dim), ResBlock(dim))

    def forward(self, x):
        return self.blocks(self.stem(x))


class ConvDecoder(nn.Module):
    def __init__(self, in_features, num_classes):
        super().__init__()
        self.layers = nn.Sequential(
            nn.Conv2d(in_features, 64, 3, 1, 1), nn.BatchNorm2d(64), nn.ReLU(),
            nn.Conv2d(64, 32, 3, 1, 1), nn.BatchNorm2d(32), nn.ReLU(),
        )
        self.classifier = nn.Conv2d(32, num_classes, 1)

    def forward(self, features, image_size):
        x = F.interpolate(self.layers(features), size=image_size, mode="bilinear", align_corners=False)
        return self.classifier(x)


class DiceCELoss(nn.Module):
    def forward(self, logits, target):
        ce = F.cross_entropy(logits, target)
        probs = logits.softmax(1)[:, 1:]
        onehot = F.one_hot(target, NUM_CLASSES).permute(0, 3, 1, 2).float()[:, 1:]
        inter = (probs * onehot).sum((0, 2, 3))
        denom = probs.sum((0, 2, 3)) + onehot.sum((0, 2, 3))
        dice = 1 - ((2 * inter + 1e-5) / (denom + 1e-5)).mean()
        return ce + dice


train_x, train_y = make_tiles(480)
test_x, test_y = make_tiles(120)
loader = DataLoader(TensorDataset(train_x, train_y), batch_size=16, shuffle=True)

encoder = Encoder()
encoder.requires_grad_(False)
encoder.eval()
decoder = ConvDecoder(48, NUM_CLASSES)
criterion = DiceCELoss()
epochs = 8
optimizer = torch.optim.AdamW(decoder.parameters(), lr=2e-3, weight_decay=0.05)
scheduler = torch.optim.lr_scheduler.CosineAnnealingLR(optimizer, T_max=epochs * len(loader))

for epoch in range(epochs):
    decoder.train()
    total, count = 0.0, 0
    for imgs, masks in loader:
        with torch.no_grad():
            feats = encoder(imgs)
        loss = criterion(decoder(feats, imgs.shape[2:]), masks)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        scheduler.step()
        total += loss.item()
        count += 1
    print(f"epoch {epoch} loss {total / count:.4f}")

decoder.eval()
with torch.no_grad():
    pred = decoder(encoder(test_x), test_x.shape[2:]).argmax(1)
    dices = []
    for c in range(1, NUM_CLASSES):
        p, t = pred == c, test_y == c
        dices.append((2 * (p & t).sum() / (p.sum() + t.sum()).clamp(min=1)).item())
    acc = sum(dices) / len(dices)
print(f"final_loss={total / count:.6g} acc={acc:.4f}")
