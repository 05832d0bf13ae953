"""Mel-frame denoiser (a 256-128-256 MLP maps a noisy 256-bin log-mel frame to the clean one,
minibatch Adam on freshly synthesised batches) trained under CPU autocast with float16 and no loss
scaling. The reconstruction loss is an element-wise mean over the batch and all bins and carries a
weight of 1e-4 (the weight the multi-task config gives this term), so the gradient arriving at each
float16 output element is around 1e-9 -- far below float16's smallest subnormal (6e-8). In the
backward pass of the autocast linear layers those gradients round to exactly zero, every weight
gradient is zero, and the denoiser never moves from its initial output.

Source: https://github.com/huggingface/diffusers/pull/13539 (Fix training gradient underflow in quantization tests)
Report: "Changes autocast dtype from `float16` to `bfloat16` in `_test_quantization_training`.
Float16's limited dynamic range (max ~65504, min subnormal ~5.96e-8) causes gradients to underflow
to zero ...; bfloat16 shares float32's exponent range and avoids this." Reproduced with clean frames
tanh(z @ B) from a 16-dimensional latent, noise of std 0.3, batch 128, loss 1e-4 * MSE, Adam lr
3e-3, 1,000 steps under torch.autocast("cpu", dtype=torch.float16). The printed loss is the
(unweighted) MSE to the clean frames on 1,000 held-out frames, `acc` the fraction of the noise
power removed on them (1 - MSE_denoised / MSE_noisy).

expect: fp16-underflow
symptom: loss-above 0.3
batch: 14
"""
import argparse

import torch
import torch.nn as nn

ap = argparse.ArgumentParser()
ap.add_argument("--seed", type=int, default=0)
args = ap.parse_args()
torch.manual_seed(args.seed)
torch.set_num_threads(1)

BINS, LATENT, LOSS_WEIGHT = 256, 16, 1e-4
basis = torch.randn(LATENT, BINS) / 2


def frames(n):
    clean = torch.tanh(torch.randn(n, LATENT) @ basis)
    return clean + 0.3 * torch.randn(n, BINS), clean


model = nn.Sequential(nn.Linear(BINS, 128), nn.ReLU(), nn.Linear(128, BINS))
opt = torch.optim.Adam(model.parameters(), lr=3e-3)

for step in range(1000):
    noisy, clean = frames(128)
    with torch.autocast("cpu", dtype=torch.float16):
        out = model(noisy)
    loss = LOSS_WEIGHT * ((out.float() - clean) ** 2).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
    if step % 100 == 0:
        print(f"step {step} mse {loss.item() / LOSS_WEIGHT:.4f}")

noisy, clean = frames(1000)
with torch.no_grad():
    mse = ((model(noisy) - clean) ** 2).mean().item()
    acc = 1 - mse / ((noisy - clean) ** 2).mean().item()
print(f"final_loss={mse:.6g} acc={acc:.4f}")
