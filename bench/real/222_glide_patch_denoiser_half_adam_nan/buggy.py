"""Fine-tuning a small noise-prediction denoiser (diffusion style: 8x8 image patches, a noise level
drawn per example, an MLP that predicts the added noise) in half precision to halve memory: the
whole model is converted with `.half()` and trained with `torch.optim.Adam` at its default
`eps=1e-8`. In float16, 1e-8 rounds to exactly 0 and the squared gradients of weights whose
gradients are below ~2e-4 flush to 0 too, so Adam's update `m / (sqrt(v) + eps)` divides a
non-zero first moment by zero for those weights: they become +-inf after the first steps and every
later loss is NaN.

Source: https://github.com/afiaka87/glide-finetune/issues/5 (Training on half precision leads to nan values)
Report: "after just the first iteration I was running into nan values. As it turns out my gradients
and input values/images were all normal but the adam optimizer by pytorch does has some weird
behavior on float16 precision where it produces nans probably because of a divide by 0 error ... I
hear changing the epison parameter for the adam weights parameter when on half precisions works".
Reproduced with 3,000 synthetic 8x8 patches (smooth gradients plus blobs), noise levels uniform in
[0.05, 0.5], an MLP 65-128-128-64 with SiLU converted to float16, Adam lr 1e-3, batches of 64,
400 steps. The printed loss is the mean noise-prediction MSE over the last 50 steps, `acc` the
share of 500 held-out noisy patches that the model's estimate makes cleaner.

expect: fp16-underflow
symptom: nonfinite
batch: 13
"""
import argparse

import torch
import torch.nn as nn

ap = argparse.ArgumentParser()
ap.add_argument("--seed", type=int, default=0)
args = ap.parse_args()
torch.manual_seed(args.seed)
torch.set_num_threads(1)

ADAM_EPS = 1e-8


def make_patches(n):
    yy, xx = torch.meshgrid(torch.linspace(-1, 1, 8), torch.linspace(-1, 1, 8), indexing="ij")
    a, b, c = torch.randn(3, n, 1, 1) * 0.4
    cx, cy = torch.rand(2, n, 1, 1) * 2 - 1
    blob = torch.exp(-((xx - cx) ** 2 + (yy - cy) ** 2) / 0.2)
    img = 0.5 + a * xx + b * yy + c * blob
    return img.reshape(n, 64)


train = make_patches(3000)
test = make_patches(500)

model = nn.Sequential(nn.Linear(65, 128), nn.SiLU(), nn.Linear(128, 128), nn.SiLU(), nn.Linear(128, 64))
model = model.half()
opt = torch.optim.Adam(model.parameters(), lr=1e-3, eps=ADAM_EPS)

history = []
for step in range(400):
    idx = torch.randint(0, len(train), (64,))
    x0 = train[idx]
    sigma = torch.rand(64, 1) * 0.45 + 0.05
    noise = torch.randn_like(x0)
    inp = torch.cat([x0 + sigma * noise, sigma], dim=1).half()
    pred = model(inp)
    loss = ((pred.float() - noise) ** 2).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
    history.append(loss.item())
    if step % 100 == 0:
        print(f"step {step} loss {loss.item():.4f}")

with torch.no_grad():
    sigma = torch.rand(500, 1) * 0.45 + 0.05
    noisy = test + sigma * torch.randn_like(test)
    est = model(torch.cat([noisy, sigma], dim=1).half()).float()
    denoised = noisy - sigma * est
    better = ((denoised - test) ** 2).mean(1) < ((noisy - test) ** 2).mean(1)
    acc = better.float().mean().item()
final = sum(history[-50:]) / 50
print(f"final_loss={final:.6g} acc={acc:.4f}")
