"""Crowd-counting network in the MSCNN/MCNN style: a small fully convolutional net regresses a per-pixel density map from a synthetic grey-scale crowd image (24x24, 0-15 people drawn as blobs on textured background), and the count is the sum of the predicted map. Every layer, including the 1x1 output convolution that produces the density, is followed by a ReLU. The target maps are almost all zeros (each head is a small Gaussian summing to one), so the pixel-wise MSE first pushes the output layer's pre-activations below zero everywhere; once the output ReLU is negative for every pixel of every image it passes no gradient back, the network is stuck predicting an all-zero map, and every image gets a count of zero.

Source: https://github.com/xiaochus/MSCNN/pull/3 ([fix bug]激活函数不能使用relu，否则参数都为0，预测也全都是0)
Report: "激活函数不能使用relu，否则参数都为0，预测也全都是0" (the activation cannot be ReLU, otherwise the parameters
all become 0 and the predictions are all 0); a commenter adds "请问为什么使用relu激活函数，会出现预测结果全为0的现象呢，这个现象我也出现了"
(why does using ReLU make every prediction 0? I see the same thing). The pull request replaces the ReLU activations;
here the fix swaps them for LeakyReLU. Reproduced with synthetic crowd images and Gaussian density maps, Adam (lr 1e-2) on the
pixel-wise MSE. The printed loss is the held-out mean absolute count error, `acc` the fraction of held-out images whose
predicted count is within 1.5 of the true count.

expect: dead-relu
symptom: acc-below 0.3
batch: 28
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

SIZE, MAX_PEOPLE, SIGMA = 24, 15, 1.5
yy, xx = torch.meshgrid(torch.arange(SIZE).float(), torch.arange(SIZE).float(), indexing="ij")


def crowd_images(n):
    images = 0.3 * torch.randn(n, 1, SIZE, SIZE)
    density = torch.zeros(n, 1, SIZE, SIZE)
    counts = torch.randint(0, MAX_PEOPLE + 1, (n,))
    for i in range(n):
        for _ in range(counts[i].item()):
            cy, cx = torch.randint(2, SIZE - 2, (2,)).float()
            blob = torch.exp(-((yy - cy) ** 2 + (xx - cx) ** 2) / (2 * SIGMA ** 2))
            images[i, 0] += blob
            density[i, 0] += blob / blob.sum()
    return images, density, counts.float()


def act():
    return nn.ReLU()


model = nn.Sequential(
    nn.Conv2d(1, 16, 5, padding=2), act(),
    nn.Conv2d(16, 16, 3, padding=1), act(),
    nn.Conv2d(16, 8, 3, padding=1), act(),
    nn.Conv2d(8, 1, 1), act(),
)
X_train, D_train, c_train = crowd_images(1200)
X_test, D_test, c_test = crowd_images(400)
opt = torch.optim.Adam(model.parameters(), lr=1e-2)
loader = torch.utils.data.DataLoader(torch.utils.data.TensorDataset(X_train, D_train), batch_size=32, shuffle=True)

for epoch in range(8):
    total = 0.0
    for xb, db in loader:
        loss = F.mse_loss(model(xb), db)
        opt.zero_grad()
        loss.backward()
        opt.step()
        total += loss.item() * len(xb)
    with torch.no_grad():
        pred_counts = model(X_test).sum((1, 2, 3))
        mae = (pred_counts - c_test).abs().mean().item()
        acc = ((pred_counts - c_test).abs() < 1.5).float().mean().item()
    print(f"epoch {epoch} mse {total / len(X_train):.3e} count_mae {mae:.3f} within1.5 {acc:.3f}")

print(f"final_loss={mae:.6g} acc={acc:.4f}")
