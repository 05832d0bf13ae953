"""Video saliency predictor: a small 3-D convolutional network maps an 8-frame 16x16 clip to per-voxel saliency logits, trained with sigmoid cross-entropy and plain SGD.

Fixed: the cross-entropy is averaged over every voxel of the batch instead of summed over each
clip's 2,048 voxels and divided only by the batch size.
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

F_, S, BOX = 8, 16, 4


def clips(n):
    x = 0.3 * torch.randn(n, 1, F_, S, S)
    target = torch.zeros(n, 1, F_, S, S)
    start = torch.randint(0, S - BOX, (n, 2)).float()
    velocity = torch.randint(-1, 2, (n, 2)).float()
    for t in range(F_):
        pos = (start + velocity * t).clamp(0, S - BOX).long()
        for i in range(n):
            r, c = pos[i].tolist()
            target[i, 0, t, r:r + BOX, c:c + BOX] = 1.0
    return x + 1.2 * target, target


X_train, Y_train = clips(600)
X_test, Y_test = clips(150)

model = nn.Sequential(nn.Conv3d(1, 8, 3, padding=1), nn.ReLU(), nn.Conv3d(8, 8, 3, padding=1), nn.ReLU(),
                      nn.Conv3d(8, 1, 3, padding=1))
opt = torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9)


def clip_loss(logits, target):
    return F.binary_cross_entropy_with_logits(logits, target, reduction="mean")


for epoch in range(5):
    order = torch.randperm(len(X_train))
    for s in range(0, len(order), 16):
        idx = order[s:s + 16]
        loss = clip_loss(model(X_train[idx]), Y_train[idx])
        opt.zero_grad()
        loss.backward()
        opt.step()
    with torch.no_grad():
        logits = model(X_test)
        test_loss = F.binary_cross_entropy_with_logits(logits, Y_test).item()
        acc = ((logits > 0).float() == Y_test).float().mean().item()
    print(f"epoch {epoch} train {loss.item():.4g} test {test_loss:.4f} acc {acc:.3f}")

print(f"final_loss={test_loss:.6g} acc={acc:.4f}")
