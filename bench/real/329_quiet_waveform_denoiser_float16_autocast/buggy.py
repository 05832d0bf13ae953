"""Waveform denoiser for quiet recordings: a two-layer bias-free MLP maps a noisy 256-sample frame to the clean frame (mean-squared error, Adam), with the forward pass run under CPU autocast in float16 and no loss scaling. The recordings are quiet (peak amplitude around 1e-3), so once the first coarse fit is done the gradient of the mean-reduced loss with respect to each float16 output is far below the smallest float16 subnormal (about 6e-8): it is flushed to zero on its way back through the half-precision matmuls, every parameter gradient becomes exactly 0, and the model freezes at an output that is barely better than silence -- it never learns to denoise.

Source: https://github.com/NVIDIA-NeMo/Speech/issues/12102 (Loss Fails to Converge in Nemo2-sft.ipynb with Precision 16)
Report: "When I switched the precision to fp16 and ran the training process, I observed that the loss
failed to converge and the gradient norm reported on wandb was extremely small (on the order of 1e-9).
In contrast, using the default setting (precision=bf16, which falls back to fp32) resulted in a much
longer training time, but the loss decreased and the gradient norm was significantly larger."
Reproduced with 4,000 synthetic quiet frames (sums of three sinusoids scaled to ~1e-3 plus white
noise of std 3e-4), batch 128, Adam lr 3e-3, 15 epochs, autocast(float16) without a GradScaler. The
printed loss is the validation MSE on 1,000 held-out frames, `acc` the fraction of validation frames
whose output error energy is below the error energy of the noisy input.

expect: fp16-underflow
symptom: final-loss-ratio 3
batch: 20
"""
import argparse

import torch
import torch.nn as nn

ap = argparse.ArgumentParser()
ap.add_argument("--seed", type=int, default=0)
args = ap.parse_args()
torch.manual_seed(args.seed)
torch.set_num_threads(1)

T = 256
AMP_DTYPE = torch.float16


def make_frames(n):
    t = torch.arange(T).float()
    freq = torch.rand(n, 3) * 0.2 + 0.02
    phase = torch.rand(n, 3) * 6.28
    amp = torch.rand(n, 3)
    clean = (amp[:, :, None] * torch.sin(freq[:, :, None] * t + phase[:, :, None])).sum(1) * 1e-3
    noisy = clean + 3e-4 * torch.randn(n, T)
    return noisy, clean


X_train, Y_train = make_frames(4000)
X_val, Y_val = make_frames(1000)
model = nn.Sequential(nn.Linear(T, 256, bias=False), nn.ReLU(), nn.Linear(256, T, bias=False))
opt = torch.optim.Adam(model.parameters(), lr=3e-3)

for epoch in range(15):
    perm = torch.randperm(len(X_train))
    for i in range(0, len(X_train), 128):
        idx = perm[i:i + 128]
        with torch.autocast("cpu", dtype=AMP_DTYPE):
            out = model(X_train[idx])
        loss = ((out.float() - Y_train[idx]) ** 2).mean()
        opt.zero_grad()
        loss.backward()
        opt.step()
    with torch.no_grad(), torch.autocast("cpu", dtype=AMP_DTYPE):
        pred = model(X_val).float()
    val = ((pred - Y_val) ** 2).mean().item()
    print(f"epoch {epoch} train {loss.item():.4e} val {val:.4e}")

err_out = ((pred - Y_val) ** 2).sum(1)
err_in = ((X_val - Y_val) ** 2).sum(1)
acc = (err_out < err_in).float().mean().item()
print(f"final_loss={val:.6g} acc={acc:.4f}")
