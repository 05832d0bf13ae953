"""Unrolled MRI reconstruction network (alternating CNN denoiser and data-consistency gradient steps on undersampled k-space) trained with MSELoss(reduction='sum') and SGD at batch size 16: the summed loss makes every gradient ~32,000x larger than the per-pixel mean, the first updates overshoot and the loss goes to inf/NaN.

Source: https://github.com/utcsilab/deepinpy/issues/13 (non-Cartesian using batch size > 2)
Report: "if I use batch size >> 1, the gradient seems to be exploding... I found the loss function
defined as self._loss_fun = torch.nn.MSELoss(reduction='sum') in deepinpy/recons/recon.py. I was
wondering if the loss function should be normalized by the batch size so that the actual learning
rate is kept consistent with different batch sizes?"; the maintainer: "I think this is related to
#5 and I forgot to change it. Regarding the exploding loss, maybe you need a smaller step size?",
then proposed a config parameter for the loss and asked for a pull request "for the batch_size
issue" (averaging the loss). Reproduced with a MoDL-style unrolled recon in miniature (4 unrolls
of a residual CNN denoiser plus a gradient step on ||M F x - y||^2 with a learned step size), 2-channel (real/imag) 32x32 synthetic phantoms, a random Cartesian
line mask with a fully sampled centre (~40% of k-space), a DataLoader at batch size 16, SGD with
momentum, and the recon loss summed over the batch and every pixel. The printed loss is the mean
per-pixel MSE of the last epoch, `acc` the share of held-out images whose reconstruction error is
below that of the zero-filled input.

expect: loss-reduction
symptom: nonfinite
batch: 9
"""
import argparse

import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset

ap = argparse.ArgumentParser()
ap.add_argument("--seed", type=int, default=0)
args = ap.parse_args()
torch.manual_seed(args.seed)
torch.set_num_threads(1)

N = 32


def phantoms(n):
    yy, xx = torch.meshgrid(torch.linspace(-1, 1, N), torch.linspace(-1, 1, N), indexing="ij")
    img = torch.zeros(n, N, N)
    for _ in range(5):
        cx, cy = torch.rand(n, 1, 1) * 1.2 - 0.6, torch.rand(n, 1, 1) * 1.2 - 0.6
        ax, ay = 0.1 + 0.4 * torch.rand(n, 1, 1), 0.1 + 0.4 * torch.rand(n, 1, 1)
        inside = ((xx - cx) / ax) ** 2 + ((yy - cy) / ay) ** 2 < 1
        img = img + inside * (0.2 + 0.8 * torch.rand(n, 1, 1))
    phase = 0.3 * (xx * torch.randn(n, 1, 1) + yy * torch.randn(n, 1, 1))
    return torch.polar(img, phase)


def make_mask():
    m = torch.rand(N) < 0.25
    m[N // 2 - 4:N // 2 + 4] = True
    return m.view(1, 1, N).expand(1, N, N).float()


MASK = make_mask()


def to_ch(z):
    return torch.stack([z.real, z.imag], 1)


def to_c(x):
    return torch.complex(x[:, 0], x[:, 1])


def AHA(x):
    return to_ch(torch.fft.ifft2(MASK * torch.fft.fft2(to_c(x), norm="ortho"), norm="ortho"))


def make_set(n):
    gt = phantoms(n)
    ksp = MASK * torch.fft.fft2(gt, norm="ortho") + 0.01 * MASK * torch.randn(n, N, N, dtype=torch.cfloat)
    zf = to_ch(torch.fft.ifft2(ksp, norm="ortho"))
    return zf, to_ch(gt)


class Denoiser(nn.Module):
    def __init__(self, ch=32):
        super().__init__()
        self.net = nn.Sequential(nn.Conv2d(2, ch, 3, padding=1), nn.ReLU(),
                                 nn.Conv2d(ch, ch, 3, padding=1), nn.ReLU(),
                                 nn.Conv2d(ch, 2, 3, padding=1))

    def forward(self, x):
        return x + self.net(x)


class UnrolledRecon(nn.Module):
    def __init__(self, n_unrolls=4):
        super().__init__()
        self.denoiser = Denoiser()
        self.step = nn.Parameter(torch.tensor(0.5))
        self.n_unrolls = n_unrolls

    def forward(self, zf):
        x = zf
        for _ in range(self.n_unrolls):
            x = self.denoiser(x)
            x = x - self.step * (AHA(x) - zf)
        return x


train_zf, train_gt = make_set(320)
test_zf, test_gt = make_set(120)
loader = DataLoader(TensorDataset(train_zf, train_gt), batch_size=16, shuffle=True)
model = UnrolledRecon()
loss_fun = nn.MSELoss(reduction="sum")
optimizer = torch.optim.SGD(model.parameters(), lr=0.01, momentum=0.9)

for epoch in range(5):
    total, count = 0.0, 0
    for zf, gt in loader:
        out = model(zf)
        loss = loss_fun(out, gt)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        total += nn.functional.mse_loss(out.detach(), gt).item()
        count += 1
    print(f"epoch {epoch} per-pixel mse {total / count:.5f}")

with torch.no_grad():
    rec = model(test_zf)
    err = ((rec - test_gt) ** 2).flatten(1).mean(1)
    err_zf = ((test_zf - test_gt) ** 2).flatten(1).mean(1)
    acc = (err < err_zf).float().mean().item()
print(f"final_loss={total / count:.6g} acc={acc:.4f}")
