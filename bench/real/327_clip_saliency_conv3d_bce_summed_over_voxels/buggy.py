"""Video saliency predictor: a small 3-D convolutional network maps a grey 8-frame 16x16 clip to a per-voxel saliency logit (is this voxel on the moving object?), trained with sigmoid cross-entropy and plain SGD. The loss is summed over all 2,048 voxels of each clip and divided only by the mini-batch size, the way the framework's sigmoid-cross-entropy layer normalises, so the loss and its gradient are about two thousand times those of a per-voxel mean; a learning rate chosen for a per-voxel loss becomes an enormous step, the weights are thrown out of range within a few updates, and the loss blows up to Inf/NaN or sits at huge values.

Source: https://github.com/facebookarchive/C3D/issues/202 (Loss is so high when using SIGMOID_CROSS_ENTROPY_LOSS or EUCLIDEAN_LOSS)
Report: "I want to predict saliency values of a voxel, using V2V ... I don't know why loss is too high
when I use SIGMOID_CROSS_ENTROPY_LOSS ... even when I change base_lr from 0.5 to 0.00005. The loss is
larger than 10,000." (maintainer: "this may be due to the prediction size is too big ... the loss is
only normalized by the mini batch size ... you can further normalize it by / (112*112*16)").
Reproduced with 600 synthetic clips (a bright square moving on a random straight path over a noisy
background; target = the square's voxels), a Conv3d(1-8-8-1, kernel 3) network, BCE-with-logits
summed per clip and averaged over the batch, SGD lr 0.05 momentum 0.9, batches of 16 sliced by hand
for 5 epochs. The printed loss is the per-voxel BCE on 150 held-out clips, `acc` the per-voxel
accuracy there.

expect: loss-reduction
symptom: loss-above 0.5
batch: 19
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
    return F.binary_cross_entropy_with_logits(logits, target, reduction="sum") / logits.shape[0]


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
