"""Bed-elevation super-resolution network (a 16x16 coarse elevation grid in metres is mapped to the 32x32 fine grid by an MLP 256 -> 384 ReLU -> 1024 on standardised elevations, output rescaled to metres), trained with Adam under CPU mixed precision (`torch.autocast(dtype=torch.float16)`), batches of 64 tiles, with a hand-written mean absolute error that sums the absolute differences of the whole batch and divides by the element count afterwards. The network output is float16, so the sum is accumulated into a float16 result: 64 x 32 x 32 = 65,536 pixel errors of a metre or more add up past the float16 maximum of 65,504, the loss is inf on every batch, and the logged training objective (and anything that early-stops or schedules on it) is useless even though the network itself is learning.

Source: https://github.com/chainer/chainer/issues/6702 (F.mean_absolute_error numerically unstable with float16 arrays)
Report: "float16 support has been enabled for F.mean_absolute_error, but it seems to produce NaN values
quite easily. Usually this happens when using big batch sizes and/or if the absolute error difference is
large. The calculation is done by summing over all the absolute differences, and then dividing by the
number of elements in the array. However, it appears that the summing can produce large numbers outside
the possible range for float16." Reproduced with 1,280 synthetic terrain tiles (smooth random hills and
ridges around 500 m, standard deviation of a few hundred metres; the coarse grid is the 2x2 average), 4
epochs. The printed loss is the mean of the training loss values of the last epoch, `acc` the fraction of
held-out pixels predicted within 15 m.

expect: fp16-overflow
symptom: nonfinite
batch: 23
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

yy, xx = torch.meshgrid(torch.linspace(0, 1, 32), torch.linspace(0, 1, 32), indexing="ij")


def terrain(n):
    z = torch.full((n, 32, 32), 500.0)
    for _ in range(5):
        cx, cy = torch.rand(n, 1, 1), torch.rand(n, 1, 1)
        h = 250 * torch.randn(n, 1, 1)
        w = 0.08 + 0.25 * torch.rand(n, 1, 1)
        z = z + h * torch.exp(-((xx - cx) ** 2 + (yy - cy) ** 2) / (2 * w ** 2))
    f = 2 + 4 * torch.rand(n, 1, 1)
    z = z + 40 * torch.sin(f * 6.28 * (xx + 0.5 * yy) + 6.28 * torch.rand(n, 1, 1))
    fine = z.unsqueeze(1)
    return F.avg_pool2d(fine, 2), fine


X_train, Y_train = terrain(1280)
X_test, Y_test = terrain(256)


class SuperRes(nn.Module):
    def __init__(self):
        super().__init__()
        self.body = nn.Sequential(nn.Linear(256, 384), nn.ReLU(), nn.Linear(384, 1024))

    def forward(self, coarse):
        z = (coarse.flatten(1) - 500.0) / 300.0
        return (self.body(z) * 300.0 + 500.0).view(-1, 1, 32, 32)


def mean_absolute_error(pred, target):
    diff = pred - target.to(pred.dtype)
    return diff.abs().sum() / diff.numel()


model = SuperRes()
opt = torch.optim.Adam(model.parameters(), lr=2e-3)

for epoch in range(4):
    perm = torch.randperm(len(X_train))
    losses = []
    for i in range(0, len(X_train), 64):
        idx = perm[i:i + 64]
        with torch.autocast("cpu", dtype=torch.float16):
            pred = model(X_train[idx])
        loss = mean_absolute_error(pred, Y_train[idx])
        opt.zero_grad()
        loss.backward()
        opt.step()
        losses.append(loss.item())
    print(f"epoch {epoch}: train mae {sum(losses) / len(losses):.3f} m")

with torch.no_grad(), torch.autocast("cpu", dtype=torch.float16):
    err = (model(X_test).float() - Y_test).abs()
acc = (err < 15).float().mean().item()
print(f"final_loss={sum(losses) / len(losses):.6g} acc={acc:.4f}")
