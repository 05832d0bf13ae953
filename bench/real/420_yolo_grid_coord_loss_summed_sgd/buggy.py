"""YOLO-style grid detector for small parcels on a conveyor camera: a small CNN maps a 28x28 frame to a 7x7 grid, and every cell predicts an objectness logit and the (x, y) offset of an object centre inside the cell. The coordinate loss is written as `MSELoss(reduce=False)` masked by the cells that hold an object and then `.sum()`-ed, and the objectness loss as `BCEWithLogitsLoss` with `size_average=False` -- both summed over the 49 cells and over the whole batch of 64 frames -- and the model is trained with plain SGD (lr 1e-3, momentum 0.9). Because nothing divides by the batch size or the number of cells, the gradient is thousands of times larger than the per-frame loss suggests; the first SGD steps overshoot so far that the detector collapses to predicting "no object" in every cell and stays there, with a per-frame loss several times that of a batch-normalized loss (Adam, which normalizes the step size, hides the problem).

Source: https://github.com/pytorch/pytorch/issues/31016 (Use mse and sgd, the gradient explode)
Report: "I calculate coordinate loss in Yolo by mse(nn.MSELoss), and train model by sgd, the gradient explode.
mse = nn.MSELoss(reduce=False) ... ce = nn.CrossEntropyLoss(size_average=False) ... loss_coord_center =
coor_xy_scale * (coord_mask * mse(coord_center, tcoord_center)).sum() ... 1. When I use Adam optimizer and
mse, the gradient can't explode." Reproduced with synthetic frames holding 1-3 bright blobs each, 300
iterations. The printed loss is the per-frame detection loss on 300 held-out frames, `acc` the held-out
objectness accuracy over cells.

expect: loss-reduction
symptom: final-loss-ratio 3
batch: 25
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

S, G = 28, 7
CELL = S // G
yy, xx = torch.meshgrid(torch.arange(S).float(), torch.arange(S).float(), indexing="ij")


def frames(n):
    imgs = 0.3 * torch.randn(n, 1, S, S)
    obj = torch.zeros(n, G, G)
    off = torch.zeros(n, G, G, 2)
    for i in range(n):
        for _ in range(int(torch.randint(1, 4, ()))):
            cy, cx = torch.empty(2).uniform_(1, S - 1).tolist()
            imgs[i, 0] += 1.5 * torch.exp(-((yy - cy) ** 2 + (xx - cx) ** 2) / 3)
            gy, gx = int(cy // CELL), int(cx // CELL)
            obj[i, gy, gx] = 1
            off[i, gy, gx] = torch.tensor([cy / CELL - gy, cx / CELL - gx])
    return imgs, obj, off


net = nn.Sequential(
    nn.Conv2d(1, 16, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2),
    nn.Conv2d(16, 32, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2),
    nn.Conv2d(32, 3, 1),
)
mse = nn.MSELoss(reduction="none")
bce = nn.BCEWithLogitsLoss(reduction="sum")


def detection_loss(out, obj, off):
    conf, xy = out[:, 0], torch.sigmoid(out[:, 1:]).permute(0, 2, 3, 1)
    loss_xy = 5.0 * (obj[..., None] * mse(xy, off)).sum()
    return loss_xy + bce(conf, obj)


X_tr, O_tr, F_tr = frames(600)
X_te, O_te, F_te = frames(300)
opt = torch.optim.SGD(net.parameters(), lr=1e-3, momentum=0.9)
for it in range(300):
    idx = torch.randint(0, len(X_tr), (64,))
    loss = detection_loss(net(X_tr[idx]), O_tr[idx], F_tr[idx])
    opt.zero_grad()
    loss.backward()
    opt.step()
    if it % 100 == 0:
        print(f"iter {it} loss {loss.item():.4f}")

with torch.no_grad():
    out = net(X_te)
    conf, xy = out[:, 0], torch.sigmoid(out[:, 1:]).permute(0, 2, 3, 1)
    per_frame = (5.0 * (O_te[..., None] * (xy - F_te) ** 2).sum() + F.binary_cross_entropy_with_logits(conf, O_te, reduction="sum")) / len(X_te)
    acc = ((conf > 0).float() == O_te).float().mean().item()
print(f"final_loss={per_frame.item():.6g} acc={acc:.4f}")
