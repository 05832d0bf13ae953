"""Cell-centre detector for fluorescence microscopy: a small fully convolutional network outputs a per-pixel logit map for 24x24 crops, and the target map marks only the single centre pixel of each cell (1-4 cells per crop), trained with plain per-pixel BCE. Fewer than one pixel in a hundred is positive, so predicting background everywhere already gives a very low loss; the network settles on the all-zero map within the first epoch and never marks a centre -- the background recall is perfect and the centre recall is zero.

Source: https://github.com/WeidiXie/cell_counting_v2/issues/9 (How to escape all zeros prediction?)
Report: "I use 128x128 input and seems network converges to all zeros prediction" (maintainer:
"That's because your gt map has too many zeros, so, the model doesn't need to learn anything,
always predicting 0s, will give very low loss already. The multiplier in the code is simply used
for weighted loss, because now, if you predict 0s at the position where gt is 100, the network will
be penalised a lot ... as long as you can balance the classes, it will avoid all zero
predictions."). Reproduced with 1,500 synthetic crops (Gaussian cell bodies of random size and
brightness on a noisy background, one positive pixel per cell), a conv 1-16-16-1 network (5x5
kernels), unweighted BCE-with-logits, Adam lr 1e-3, batches of 32 sliced by hand for 6 epochs. The
printed loss is the unweighted per-pixel BCE on 300 held-out crops, `acc` the balanced pixel
accuracy there (mean of centre recall and background recall).

expect: class-imbalance
symptom: acc-below 0.6
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

S = 24
yy, xx = torch.meshgrid(torch.arange(S).float(), torch.arange(S).float(), indexing="ij")


def crops(n):
    img = 0.2 * torch.randn(n, 1, S, S)
    target = torch.zeros(n, 1, S, S)
    for i in range(n):
        for _ in range(int(torch.randint(1, 5, (1,)))):
            r, c = torch.randint(2, S - 2, (2,)).tolist()
            size = 1.5 + 1.5 * torch.rand(1)
            img[i, 0] += (0.7 + 0.6 * torch.rand(1)) * torch.exp(-((yy - r) ** 2 + (xx - c) ** 2) / (2 * size ** 2))
            target[i, 0, r, c] = 1.0
    return img, target


X_train, Y_train = crops(1500)
X_test, Y_test = crops(300)

model = nn.Sequential(nn.Conv2d(1, 16, 5, padding=2), nn.ReLU(), nn.Conv2d(16, 16, 5, padding=2), nn.ReLU(),
                      nn.Conv2d(16, 1, 5, padding=2))
opt = torch.optim.Adam(model.parameters(), lr=1e-3)
pos_weight = torch.tensor(1.0)

for epoch in range(6):
    order = torch.randperm(len(X_train))
    for s in range(0, len(order), 32):
        idx = order[s:s + 32]
        loss = F.binary_cross_entropy_with_logits(model(X_train[idx]), Y_train[idx], pos_weight=pos_weight)
        opt.zero_grad()
        loss.backward()
        opt.step()
    with torch.no_grad():
        logits = model(X_test)
        test_loss = F.binary_cross_entropy_with_logits(logits, Y_test).item()
        pred = logits > 0
        centre_recall = pred[Y_test == 1].float().mean().item()
        background_recall = (~pred[Y_test == 0]).float().mean().item()
        acc = 0.5 * (centre_recall + background_recall)
    print(f"epoch {epoch} train {loss.item():.4f} test {test_loss:.4f} centres {centre_recall:.3f} background {background_recall:.3f}")

print(f"final_loss={test_loss:.6g} acc={acc:.4f}")
