"""Self-supervised (blind-spot) image denoiser trained with Adam at an initial learning rate of 1.

Source: https://github.com/PENGLU-WashU/IMC_Denoise/issues/11 (Demo training data generates NaN for loss)
Report: training DeepSNiF on the demo data gives a NaN loss; the maintainer: "As your settings,
the current initial learning rate is 1, which is too big. Please set train_initial_lr as 1e-3."
Reproduced with a small convolutional blind-spot denoiser (masked pixels replaced by a
neighbour, loss on the masked pixels only, as in Noise2Void/DeepSNiF) on synthetic
Poisson-noisy images, Adam with a step learning-rate decay.

expect: lr-too-high
symptom: final-loss-ratio 3
batch: 2
"""
import argparse

import torch
import torch.nn as nn

ap = argparse.ArgumentParser()
ap.add_argument("--seed", type=int, default=0)
ap.add_argument("--train_initial_lr", type=float, default=1.0)
args = ap.parse_args()
torch.manual_seed(args.seed)


def clean_images(n, s=16):
    yy, xx = torch.meshgrid(torch.arange(s).float(), torch.arange(s).float(), indexing="ij")
    c = torch.rand(n, 2, 1, 1) * s
    r = 1.5 + 3 * torch.rand(n, 1, 1, 1)
    blob = torch.exp(-((yy - c[:, :1]) ** 2 + (xx - c[:, 1:]) ** 2) / (2 * r ** 2))
    return 3 * blob


clean = clean_images(400)
noisy = torch.poisson(clean * 4) / 4  # IMC-like shot noise


def blind_spot(x, frac=0.05):
    mask = torch.rand_like(x) < frac
    shifted = torch.roll(x, shifts=(1, 1), dims=(2, 3))
    return torch.where(mask, shifted, x), mask


model = nn.Sequential(nn.Conv2d(1, 16, 3, padding=1), nn.ReLU(), nn.Conv2d(16, 16, 3, padding=1), nn.ReLU(),
                      nn.Conv2d(16, 16, 3, padding=1), nn.ReLU(), nn.Conv2d(16, 1, 1))
opt = torch.optim.Adam(model.parameters(), lr=args.train_initial_lr)
sched = torch.optim.lr_scheduler.StepLR(opt, step_size=80, gamma=0.5)
losses = []
for step in range(200):
    idx = torch.randint(0, 400, (16,))
    x = noisy[idx]
    inp, mask = blind_spot(x)
    out = model(inp)
    loss = ((out - x) ** 2)[mask].mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
    sched.step()
    losses.append(loss.item())
with torch.no_grad():
    err = ((model(noisy[:100]) - clean[:100]) ** 2).mean().item()
    base = ((noisy[:100] - clean[:100]) ** 2).mean().item()
print(f"final_loss={sum(losses[-10:]) / 10:.6g} acc={max(0.0, 1 - err / base):.4f}")
