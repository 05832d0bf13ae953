"""Frame-wise speech enhancement (noisy log-mel frame plus its two neighbours in, clean log-mel
frame out; an MLP trained under CPU autocast with float16, no GradScaler) with a spectral-convergence
loss, ||pred - target|| / ||target|| over the whole batch. The loss is written by hand after the
autocast block on the float16 prediction (targets cast to its dtype), as square roots of summed
squares. Every value and every per-bin square fits float16, but the two batch sums over 512 frames
x 64 bins pass float16's maximum (65504) and become inf: the loss is inf/inf = NaN from the first
step, its gradient is exactly zero (1/inf), and the model never learns.

Source: https://github.com/tracel-ai/burn/issues/4109 (CUDA fp16 values becoming INF)
Report: "The problem is that I was summing a bunch of ones, and given its big shape, the sum was
getting past the maximum of the fp16 limit, reaching INF ... If I'm summing to make the test (which
should sum to `65536`), and the sum goes over the maximum fp16 limit (which is `65504`), so it sure
does go to INF". Reproduced with 6,000 synthetic log-mel frames (harmonic speech-like envelopes,
log energies around -6..2) with additive noise, a 192-256-256-64 MLP under
`torch.autocast("cpu", dtype=torch.float16)`, Adam lr 2e-3, batches of 512, 12 epochs. The printed
loss is the mean training loss of the last epoch, `acc` the share of validation frames whose error
is below that of the noisy input.

expect: fp16-overflow
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

BINS = 64


def make_frames(n):
    f0 = torch.rand(n, 1) * 6 + 3
    k = torch.arange(BINS).float()
    envelope = 2.0 * torch.cos(k / f0) - 0.06 * k + torch.randn(n, 1) * 0.5
    clean = envelope.clamp(-6, 2)
    noisy = torch.log(torch.exp(clean) + torch.rand(n, 1) * 0.8 + 0.05)
    return noisy, clean


noisy, clean = make_frames(6000)
ctx = torch.cat([noisy.roll(1, 0), noisy, noisy.roll(-1, 0)], dim=1)
x_tr, y_tr, x_va, y_va = ctx[:5000], clean[:5000], ctx[5000:], clean[5000:]
noisy_va = noisy[5000:]

model = nn.Sequential(nn.Linear(3 * BINS, 256), nn.ReLU(), nn.Linear(256, 256), nn.ReLU(), nn.Linear(256, BINS))
opt = torch.optim.Adam(model.parameters(), lr=2e-3)


def frame_loss(pred, target):
    target = target.to(pred.dtype)
    return ((pred - target) ** 2).sum().sqrt() / (target ** 2).sum().sqrt()


for epoch in range(12):
    perm = torch.randperm(len(x_tr))
    total, steps = 0.0, 0
    for i in range(0, len(perm), 512):
        idx = perm[i:i + 512]
        with torch.autocast("cpu", dtype=torch.float16):
            pred = model(x_tr[idx])
        loss = frame_loss(pred, y_tr[idx])
        opt.zero_grad()
        loss.backward()
        opt.step()
        total += loss.item()
        steps += 1
    with torch.no_grad():
        pv = model(x_va)
        val = ((pv - y_va) ** 2).mean().item()
    print(f"epoch {epoch} train {total / steps:.4f} val {val:.4f}")

acc = (((pv - y_va) ** 2).mean(1) < ((noisy_va - y_va) ** 2).mean(1)).float().mean().item()
print(f"final_loss={total / steps:.6g} acc={acc:.4f}")
