"""Float16-autocast speech enhancer with a spectral-convergence loss -- fixed by computing the loss in
float32 (prediction and target cast to float32 before the sums), so the batch sums no longer pass
float16's maximum (nothing else changed).
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
    pred, target = pred.float(), target.float()
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
