"""YOLO-style grid detector for a small six-class dataset: a compact CNN maps a 32x32 image to a 4x4 grid, and every cell predicts objectness, a class and the object's offset and size; the loss adds objectness BCE, class cross-entropy on occupied cells and box MSE. It is trained with Adam at a learning rate of 1e-6 (the value passed on the command line when fine-tuning), far too small for a network that starts from scratch: after the whole run the weights have barely moved and the loss sits where it started.

Source: https://github.com/thtrieu/darkflow/issues/1120 (I can't reduce ave loss.)
Report: "I can't reduce ave loss. It stays 3.0~4.0 at 10000step~50000step. I used option --lr 1e-06.
I tried --lr 1e-07, --lr 1e-08, or --lr 1e-05 but it dosen't work. datasize :925pic classes : 6".
Reproduced with 1,000 synthetic 32x32 training images holding 1-3 objects of six shape/texture
classes (plus 400 held-out images), the grid detector above, Adam lr 1e-6, batches of 32,
12 epochs. The printed loss is the detection loss on the held-out images, `acc` the class accuracy
on held-out occupied cells whose objectness is also detected.

expect: lr-too-low
symptom: loss-above 1.5
batch: 18
"""
import argparse

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset

ap = argparse.ArgumentParser()
ap.add_argument("--seed", type=int, default=0)
ap.add_argument("--lr", type=float, default=1e-6)
args = ap.parse_args()
torch.manual_seed(args.seed)
torch.set_num_threads(1)

S, G, C = 32, 4, 6
CELL = S // G
patterns = torch.randn(C, 6, 6).sign() * 0.5 + 0.5


def scenes(n):
    img = 0.15 * torch.randn(n, 1, S, S)
    obj = torch.zeros(n, G, G)
    cls = torch.zeros(n, G, G, dtype=torch.long)
    box = torch.zeros(n, G, G, 2)
    for i in range(n):
        cells = torch.randperm(G * G)[: int(torch.randint(1, 4, ()))]
        for c in cells.tolist():
            gy, gx = divmod(c, G)
            k = int(torch.randint(0, C, ()))
            oy, ox = torch.randint(0, CELL - 5, (2,)).tolist()
            y0, x0 = gy * CELL + oy, gx * CELL + ox
            h = min(6, S - y0)
            w = min(6, S - x0)
            img[i, 0, y0:y0 + h, x0:x0 + w] += patterns[k, :h, :w] * (0.8 + 0.4 * torch.rand(()))
            obj[i, gy, gx] = 1
            cls[i, gy, gx] = k
            box[i, gy, gx] = torch.tensor([oy / CELL, ox / CELL])
    return img, obj, cls, box


class GridDetector(nn.Module):
    def __init__(self):
        super().__init__()
        self.features = nn.Sequential(
            nn.Conv2d(1, 16, 3, padding=1), nn.LeakyReLU(0.1), nn.MaxPool2d(2),
            nn.Conv2d(16, 32, 3, padding=1), nn.LeakyReLU(0.1), nn.MaxPool2d(2),
            nn.Conv2d(32, 32, 3, padding=1), nn.LeakyReLU(0.1), nn.MaxPool2d(2),
        )
        self.head = nn.Conv2d(32, 1 + C + 2, 1)

    def forward(self, x):
        return self.head(self.features(x)).permute(0, 2, 3, 1)


def detection_loss(out, obj, cls, box):
    l_obj = F.binary_cross_entropy_with_logits(out[..., 0], obj)
    m = obj.bool()
    l_cls = F.cross_entropy(out[..., 1:1 + C][m], cls[m])
    l_box = F.mse_loss(torch.sigmoid(out[..., 1 + C:])[m], box[m])
    return l_obj + l_cls + 5 * l_box


Xtr, Otr, Ctr, Btr = scenes(1000)
Xte, Ote, Cte, Bte = scenes(400)
model = GridDetector()
opt = torch.optim.Adam(model.parameters(), lr=args.lr)
loader = DataLoader(TensorDataset(Xtr, Otr, Ctr, Btr), batch_size=32, shuffle=True)

for epoch in range(12):
    model.train()
    for xb, ob, cb, bb in loader:
        loss = detection_loss(model(xb), ob, cb, bb)
        opt.zero_grad()
        loss.backward()
        opt.step()
    model.eval()
    with torch.no_grad():
        out = model(Xte)
        val = detection_loss(out, Ote, Cte, Bte).item()
        m = Ote.bool()
        hit = (out[..., 0][m] > 0) & (out[..., 1:1 + C][m].argmax(-1) == Cte[m])
        acc = hit.float().mean().item()
    print(f"epoch {epoch} train {loss.item():.4f} val {val:.4f} acc {acc:.4f}")

print(f"final_loss={val:.6g} acc={acc:.4f}")
