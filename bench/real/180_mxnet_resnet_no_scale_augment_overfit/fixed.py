"""Small-ResNet image classifier -- fixed as the answer says: the training batches get scale
augmentation (random rescaling 0.75-1.25 with a random shift, i.e. a scale + crop jitter, and a
random horizontal flip) as in the reference transforms (nothing else changed).
"""
import argparse
import math

import torch
import torch.nn as nn
import torch.nn.functional as F

ap = argparse.ArgumentParser()
ap.add_argument("--seed", type=int, default=0)
args = ap.parse_args()
torch.manual_seed(args.seed)
torch.set_num_threads(1)

SIZE, N_CLASSES = 20, 10


def shape_mask(cls, yy, xx):
    r = (yy ** 2 + xx ** 2).sqrt()
    ang = torch.atan2(yy, xx)
    masks = [
        r < 0.8,                                             # disc
        (yy.abs() < 0.7) & (xx.abs() < 0.7),                 # square
        (r < 0.85) & (r > 0.5),                              # ring
        (yy.abs() < 0.25) | (xx.abs() < 0.25),               # plus
        (yy > -0.6) & (yy < 0.8 - 1.4 * xx.abs()),           # triangle
        (xx.abs() + yy.abs()) < 0.85,                        # diamond
        ((yy - xx).abs() < 0.25) | ((yy + xx).abs() < 0.25), # cross
        r < 0.35 + 0.45 * (torch.cos(5 * ang) > 0).float(),  # star-ish
        (yy.abs() < 0.3) & (xx.abs() < 0.9),                 # bar
        ((yy.abs() < 0.8) & (xx.abs() < 0.8)) & ~((yy.abs() < 0.45) & (xx.abs() < 0.45)),  # frame
    ]
    return masks[cls]


def make_images(n):
    lin = torch.linspace(-1, 1, SIZE)
    Y, X = torch.meshgrid(lin, lin, indexing="ij")
    imgs, labels = torch.zeros(n, 3, SIZE, SIZE), torch.randint(0, N_CLASSES, (n,))
    for i in range(n):
        scale = 0.35 + 0.4 * float(torch.rand(1))
        cy, cx = ((torch.rand(2) - 0.5) * (2 - 2 * scale)).tolist()
        th = float(torch.rand(1)) * 2 * math.pi
        yy, xx = (Y - cy) / scale, (X - cx) / scale
        yy, xx = yy * math.cos(th) - xx * math.sin(th), yy * math.sin(th) + xx * math.cos(th)
        m = shape_mask(int(labels[i]), yy, xx).float()
        bg = 0.3 * torch.rand(3, 1, 1) + 0.25 * F.avg_pool2d(torch.rand(1, 3, SIZE, SIZE), 5, 1, 2)[0]
        fg = 0.4 + 0.6 * torch.rand(3, 1, 1)
        imgs[i] = bg * (1 - m) + fg * m + 0.05 * torch.randn(3, SIZE, SIZE)
    return (imgs - 0.45) / 0.25, labels


class BasicBlock(nn.Module):
    def __init__(self, cin, cout, stride):
        super().__init__()
        self.conv1 = nn.Conv2d(cin, cout, 3, stride, 1, bias=False)
        self.bn1 = nn.BatchNorm2d(cout)
        self.conv2 = nn.Conv2d(cout, cout, 3, 1, 1, bias=False)
        self.bn2 = nn.BatchNorm2d(cout)
        self.short = (nn.Sequential(nn.Conv2d(cin, cout, 1, stride, bias=False), nn.BatchNorm2d(cout))
                      if stride != 1 or cin != cout else nn.Identity())

    def forward(self, x):
        out = F.relu(self.bn1(self.conv1(x)))
        return F.relu(self.bn2(self.conv2(out)) + self.short(x))


class ResNet(nn.Module):
    def __init__(self, num_classes):
        super().__init__()
        self.stem = nn.Sequential(nn.Conv2d(3, 12, 3, 1, 1, bias=False), nn.BatchNorm2d(12), nn.ReLU())
        self.layers = nn.Sequential(BasicBlock(12, 12, 1), BasicBlock(12, 24, 2), BasicBlock(24, 48, 2))
        self.fc = nn.Linear(48, num_classes)

    def forward(self, x):
        return self.fc(self.layers(self.stem(x)).mean((2, 3)))


def transform(batch):
    n = batch.shape[0]
    s = 0.75 + 0.5 * torch.rand(n)
    flip = torch.where(torch.rand(n) < 0.5, -1.0, 1.0)
    theta = torch.zeros(n, 2, 3)
    theta[:, 0, 0], theta[:, 1, 1] = s * flip, s
    theta[:, :, 2] = (torch.rand(n, 2) - 0.5) * 0.4
    grid = F.affine_grid(theta, batch.shape, align_corners=False)
    return F.grid_sample(batch, grid, padding_mode='border', align_corners=False)


train_x, train_y = make_images(256)
val_x, val_y = make_images(600)
model = ResNet(N_CLASSES)
optimizer = torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9, weight_decay=1e-4)


def evaluate():
    model.eval()
    with torch.no_grad():
        logits = model(val_x)
        return F.cross_entropy(logits, val_y).item(), (logits.argmax(1) == val_y).float().mean().item()


for epoch in range(50):
    model.train()
    perm = torch.randperm(len(train_x))
    total, count = 0.0, 0
    for i in range(0, len(perm), 32):
        idx = perm[i:i + 32]
        loss = F.cross_entropy(model(transform(train_x[idx])), train_y[idx])
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        total += loss.item()
        count += 1
    if epoch % 10 == 9:
        vl, va = evaluate()
        print(f"epoch {epoch + 1} train loss {total / count:.4f} val loss {vl:.4f} val acc {va:.3f}")

val_loss, acc = evaluate()
print(f"final_loss={val_loss:.6g} acc={acc:.4f}")
