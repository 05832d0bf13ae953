"""Small CNN image classifier (two conv blocks and a linear head, Adam, batch 32, a fixed budget of 600 steps) on CIFAR-like 3x12x12 images of 10 classes, where each class is a textured template seen through a random shift, colour jitter and heavy pixel noise. The training set is cut down to a 200-image subset of the 9,600 available images and the step budget is spent by cycling that subset about 96 times: the network drives its training loss to ~0 by memorizing the 200 images while the test loss climbs steadily from the first evaluation on -- train accuracy 100%, test accuracy far below what the task allows.

Source: https://github.com/soapisnotfat/pytorch-cifar10/issues/9 (Reduce the training set, leading to overfitting)
Report: "When I only use 10,000 training data, the loss function of the test dataset of each network has been rising
instead of falling, which will lead to very serious overfitting. Training accuracy rate is 100%, test accuracy rate
is 10%. How can I solve this problem?" Reproduced with 9,600 synthetic training images (200 of them used) and 2,000
test images; the fix trains on the whole training set with the same step budget. The printed loss is the final test
cross-entropy; `acc` is the test accuracy.

expect: overfitting
symptom: loss-above 1.3
batch: 26
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

N_CLASSES, S, TRAIN_SUBSET, STEPS = 10, 12, 200, 600
templates = F.avg_pool2d(torch.randn(N_CLASSES, 3, S + 4, S + 4), 3, 1, 1)


def images(n):
    y = torch.randint(0, N_CLASSES, (n,))
    out = torch.empty(n, 3, S, S)
    for k in range(n):
        dy, dx = torch.randint(0, 5, (2,)).tolist()
        out[k] = templates[y[k], :, dy:dy + S, dx:dx + S]
    out = out * (1 + 0.3 * torch.randn(n, 3, 1, 1)) + 1.2 * torch.randn(n, 3, S, S)
    return out, y


X_all, y_all = images(9600)
X_te, y_te = images(2000)
X_tr, y_tr = X_all[:TRAIN_SUBSET], y_all[:TRAIN_SUBSET]

model = nn.Sequential(nn.Conv2d(3, 16, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2),
                      nn.Conv2d(16, 32, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2),
                      nn.Flatten(), nn.Linear(32 * 9, 96), nn.ReLU(), nn.Linear(96, N_CLASSES))
opt = torch.optim.Adam(model.parameters(), lr=1e-3)
perm, pos = torch.randperm(len(X_tr)), 0
for step in range(STEPS):
    if pos + 32 > len(perm):
        perm, pos = torch.randperm(len(X_tr)), 0
    idx = perm[pos:pos + 32]
    pos += 32
    loss = F.cross_entropy(model(X_tr[idx]), y_tr[idx])
    opt.zero_grad()
    loss.backward()
    opt.step()
    if step % 100 == 99:
        with torch.no_grad():
            test_loss = F.cross_entropy(model(X_te), y_te).item()
        print(f"step {step + 1} train loss {loss.item():.4f} test loss {test_loss:.4f}")

with torch.no_grad():
    logits = model(X_te)
    test_loss = F.cross_entropy(logits, y_te).item()
    acc = (logits.argmax(1) == y_te).float().mean().item()
print(f"final_loss={test_loss:.6g} acc={acc:.4f}")
