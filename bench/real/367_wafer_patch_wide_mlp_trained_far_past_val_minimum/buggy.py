"""Wafer-inspection patch classifier: a wide MLP (12x12 grey patch flattened to 144 inputs, two hidden layers of 512 ReLU units, 4 defect classes), cross-entropy, Adam lr 1e-3, full-batch updates on a small labelled set of 400 patches (about 8% of them mislabelled by the inspectors), trained for 200 epochs with the validation loss only logged. The network has far more capacity than the data support; after the first few dozen epochs it stops learning the defect shapes and starts memorising individual training patches -- the mislabelled ones included -- so the training loss keeps falling towards zero while the validation loss climbs well above its early minimum.

Source: https://github.com/WongKinYiu/yolov7/issues/1241 (the training set loss went down while the validation set loss went up)
Report: "When I was training, the training set loss went down while the validation set loss went up. I
tried to add more data sets or do data enhancement, but it didn't get better." -- answer: "It seems that
you are overfitting the model. Either you have very few data or the model is too complex. My advice is to
find a trade-off between complexity and dataset size." Reproduced with synthetic patches (four defect
shapes -- scratch, ring, cluster, edge -- at random positions and contrast plus noise), 400 for training and
1,000 for validation, and the model above. The printed loss is the final validation cross-entropy, `acc`
the validation accuracy.

expect: overfitting
symptom: loss-above 0.75
batch: 22
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

SIDE, CLASSES, EPOCHS, HIDDEN = 12, 4, 200, 512
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
