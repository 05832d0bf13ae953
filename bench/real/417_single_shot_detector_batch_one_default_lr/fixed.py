"""Single-shot detector in the style of SSD on one 4x4 feature map (multibox loss: smooth-L1 on matched anchors with SSD variances plus cross-entropy, SGD momentum 0.9, single-image batches).

Fixed: the learning rate is scaled down for the single-image batch (lr 1e-3 instead of the batch-32 default
1e-2), so momentum SGD no longer runs away on the noisy per-image gradients.
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

S, G, CLASSES = 32, 4, 3
CONFIG = {"lr": 1e-3, "momentum": 0.9, "weight_decay": 5e-4, "batch_size": 1, "iters": 600}
cell = S // G
anchors = torch.stack(torch.meshgrid((torch.arange(G) + 0.5) * cell, (torch.arange(G) + 0.5) * cell, indexing="ij"), -1).reshape(-1, 2)
anchor_wh = torch.tensor([10.0, 10.0])
levels = torch.tensor([1.5, -1.5, 0.0])
textures = torch.randn(CLASSES, 8, 8)


def make_images(n):
    imgs = 0.5 * torch.randn(n, 1, S, S)
    boxes, labels = torch.zeros(n, 4), torch.randint(0, CLASSES, (n,))
    for i in range(n):
        w, h = torch.randint(6, 15, (2,)).tolist()
        x0, y0 = torch.randint(0, S - w, ()).item(), torch.randint(0, S - h, ()).item()
        patch = textures[labels[i]].repeat(2, 2)[:h, :w]
        imgs[i, 0, y0:y0 + h, x0:x0 + w] += levels[labels[i]] + patch.sign()
        boxes[i] = torch.tensor([y0 + h / 2, x0 + w / 2, h, w])
    return imgs, boxes, labels


def encode(box):
    # box: (cy, cx, h, w) -> offsets per anchor, SSD variances 0.1 / 0.2
    d_center = (box[:, None, :2] - anchors[None]) / anchor_wh / 0.1
    d_size = torch.log(box[:, None, 2:] / anchor_wh) / 0.2
    return torch.cat([d_center, d_size.expand(-1, G * G, -1)], -1)


def multibox_loss(loc, conf, box, label):
    match = ((box[:, None, :2] - anchors[None]).abs() < cell / 2).all(-1)  # anchor cell holding the centre
    target_cls = torch.where(match, label[:, None] + 1, torch.zeros_like(match, dtype=torch.long))
    n_pos = match.sum().clamp(min=1)
    loss_l = F.smooth_l1_loss(loc[match], encode(box)[match], reduction="sum")
    loss_c = F.cross_entropy(conf.reshape(-1, CLASSES + 1), target_cls.reshape(-1), reduction="sum")
    return (loss_l + loss_c) / n_pos


class TinySSD(nn.Module):
    def __init__(self):
        super().__init__()
        self.backbone = nn.Sequential(
            nn.Conv2d(1, 16, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2),
            nn.Conv2d(16, 32, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2),
            nn.Conv2d(32, 32, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2),
        )
        self.loc = nn.Conv2d(32, 4, 3, padding=1)
        self.conf = nn.Conv2d(32, CLASSES + 1, 3, padding=1)

    def forward(self, x):
        f = self.backbone(x)
        loc = self.loc(f).permute(0, 2, 3, 1).reshape(len(x), -1, 4)
        conf = self.conf(f).permute(0, 2, 3, 1).reshape(len(x), -1, CLASSES + 1)
        return loc, conf


X_tr, B_tr, L_tr = make_images(600)
X_te, B_te, L_te = make_images(200)
net = TinySSD()
opt = torch.optim.SGD(net.parameters(), lr=CONFIG["lr"], momentum=CONFIG["momentum"], weight_decay=CONFIG["weight_decay"])
for it in range(CONFIG["iters"]):
    idx = torch.randint(0, len(X_tr), (CONFIG["batch_size"],))
    loc, conf = net(X_tr[idx])
    loss = multibox_loss(loc, conf, B_tr[idx], L_tr[idx])
    opt.zero_grad()
    loss.backward()
    opt.step()
    if it % 100 == 0:
        with torch.no_grad():
            val = multibox_loss(*net(X_te), B_te, L_te).item()
        print(f"iter {it} || Loss: {loss.item():.4f} || val: {val:.4f}")

with torch.no_grad():
    loc, conf = net(X_te)
    test_loss = multibox_loss(loc, conf, B_te, L_te).item()
    obj = conf.softmax(-1)[..., 1:]
    best = obj.max(-1).values.argmax(1)
    pred_cls = obj[torch.arange(len(X_te)), best].argmax(-1)
    acc = (pred_cls == L_te).float().mean().item()
print(f"final_loss={test_loss:.6g} acc={acc:.4f}")
