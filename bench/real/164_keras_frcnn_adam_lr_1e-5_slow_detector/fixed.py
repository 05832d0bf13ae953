"""Small object detector -- fixed with a learning rate suited to training from scratch: Adam at 1e-3
instead of 1e-5 (nothing else changed).
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

S, G, C = 32, 4, 3                     # image size, grid size, classes
yy, xx = torch.meshgrid(torch.arange(S).float(), torch.arange(S).float(), indexing="ij")


def make_scenes(n):
    img = 0.3 + 0.05 * torch.randn(n, 1, S, S) + 0.05 * torch.sin(xx / 3 + torch.rand(n, 1, 1, 1) * 6)
    obj = torch.zeros(n, G, G)
    box = torch.zeros(n, 4, G, G)
    cls = torch.full((n, G, G), -100, dtype=torch.long)
    for i in range(n):
        for _ in range(int(torch.randint(1, 4, (1,)))):
            gx, gy = torch.randint(0, G, (2,)).tolist()
            if obj[i, gy, gx]:
                continue
            cx, cy = (gx + torch.rand(1).item()) * S / G, (gy + torch.rand(1).item()) * S / G
            r = 2.5 + 2.5 * torch.rand(1).item()
            k = int(torch.randint(0, C, (1,)))
            if k == 0:
                mask = ((xx - cx).abs() < r) & ((yy - cy).abs() < r)
            elif k == 1:
                mask = (xx - cx) ** 2 + (yy - cy) ** 2 < r ** 2
            else:
                mask = (yy - cy < r) & (yy - cy > -r) & ((xx - cx).abs() < (yy - cy + r) / 2)
            img[i, 0][mask] = 0.9
            obj[i, gy, gx] = 1
            box[i, :, gy, gx] = torch.tensor([cx * G / S - gx, cy * G / S - gy, r / 5, r / 5])
            cls[i, gy, gx] = k
    return img, obj, box, cls


class Detector(nn.Module):
    def __init__(self):
        super().__init__()
        def block(i, o):
            return nn.Sequential(nn.Conv2d(i, o, 3, padding=1), nn.BatchNorm2d(o), nn.ReLU(), nn.MaxPool2d(2))
        self.backbone = nn.Sequential(block(1, 16), block(16, 32), block(32, 64))
        self.rpn_cls = nn.Conv2d(64, 1, 1)
        self.rpn_reg = nn.Conv2d(64, 4, 1)
        self.classifier = nn.Conv2d(64, C, 1)

    def forward(self, x):
        f = self.backbone(x)
        return self.rpn_cls(f).squeeze(1), self.rpn_reg(f), self.classifier(f)


def detection_loss(out, obj, box, cls):
    o, r, c = out
    l_obj = F.binary_cross_entropy_with_logits(o, obj)
    m = obj.unsqueeze(1).expand_as(r).bool()
    l_reg = F.smooth_l1_loss(r[m], box[m]) if m.any() else r.sum() * 0
    l_cls = F.cross_entropy(c, cls, ignore_index=-100)
    return l_obj + l_reg + l_cls


train = make_scenes(2400)
test = make_scenes(500)
loader = DataLoader(TensorDataset(*train), batch_size=32, shuffle=True)
model = Detector()
optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)

for epoch in range(5):
    model.train()
    total, count = 0.0, 0
    for img, obj, box, cls in loader:
        loss = detection_loss(model(img), obj, box, cls)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        total += loss.item()
        count += 1
    print(f"epoch {epoch} loss {total / count:.4f}")

model.eval()
with torch.no_grad():
    o, r, c = model(test[0])
    found = (torch.sigmoid(o) > 0.5) & (c.argmax(1) == test[3])
    acc = (found & test[1].bool()).sum().item() / test[1].sum().item()
print(f"final_loss={total / count:.6g} acc={acc:.4f}")
