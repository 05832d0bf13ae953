"""Fixed version of 40_srcnn_tiny_lr/buggy.py (the source and the report are in its docstring).

Fix: a more aggressive learning rate (0.05).
"""
import argparse

import torch
import torch.nn as nn
import torch.nn.functional as F

ap = argparse.ArgumentParser()
ap.add_argument("--seed", type=int, default=0)
ap.add_argument("--learning_rate", type=float, default=0.05)
args = ap.parse_args()
torch.manual_seed(args.seed)


class SRCNN(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv1 = nn.Conv2d(1, 32, 9, padding=4)
        self.conv2 = nn.Conv2d(32, 16, 1)
        self.conv3 = nn.Conv2d(16, 1, 5, padding=2)

    def forward(self, x):
        return self.conv3(F.relu(self.conv2(F.relu(self.conv1(x)))))


def patches(n):
    hr = torch.rand(n, 1, 4, 4).repeat_interleave(4, 2).repeat_interleave(4, 3)
    hr = F.avg_pool2d(F.pad(hr, (1, 1, 1, 1), mode="replicate"), 3, 1)  # smooth blocks
    lr_img = F.interpolate(F.avg_pool2d(hr, 2), scale_factor=2, mode="bilinear", align_corners=False)
    return lr_img, hr


model = SRCNN()
opt = torch.optim.SGD(model.parameters(), lr=args.learning_rate)
losses = []
for step in range(150):
    lr_img, hr = patches(16)
    loss = F.mse_loss(model(lr_img), hr)
    opt.zero_grad()
    loss.backward()
    opt.step()
    losses.append(loss.item())
print(f"final_loss={sum(losses[-10:]) / 10:.6g} acc={0.0:.4f}")
