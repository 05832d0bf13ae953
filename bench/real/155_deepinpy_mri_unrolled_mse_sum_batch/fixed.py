"""Unrolled MRI reconstruction network -- fixed as the issue proposes and the maintainer agreed: the
recon loss is averaged (MSELoss() with the default reduction='mean') instead of summed over the
batch and every pixel (nothing else changed).
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
loss_fun = nn.MSELoss()
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
