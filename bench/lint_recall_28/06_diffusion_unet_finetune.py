"""Latent diffusion fine-tuning loop with fp16 mixed precision and gradient clipping."""
import argparse

import torch
import torch.nn as nn
import torch.nn.functional as F


class TinyUNet(nn.Module):
    def __init__(self, ch=4):
        super().__init__()
        self.down = nn.Conv2d(ch, 32, 3, padding=1)
        self.mid = nn.Conv2d(32, 32, 3, padding=1)
        self.up = nn.Conv2d(32, ch, 3, padding=1)
        self.t_embed = nn.Embedding(1000, 32)

    def forward(self, x, t):
        h = F.silu(self.down(x)) + self.t_embed(t)[:, :, None, None]
        h = F.silu(self.mid(h))
        return self.up(h)


def add_noise(latents, noise, t, alphas_cumprod):
    a = alphas_cumprod[t].sqrt()[:, None, None, None]
    s = (1 - alphas_cumprod[t]).sqrt()[:, None, None, None]
    return a * latents + s * noise


def main(args):
    device = "cuda" if torch.cuda.is_available() else "cpu"
    unet = TinyUNet().to(device)
    optimizer = torch.optim.AdamW(unet.parameters(), lr=args.lr)
    scaler = torch.cuda.amp.GradScaler(enabled=args.fp16)
    betas = torch.linspace(1e-4, 0.02, 1000, device=device)
    alphas_cumprod = torch.cumprod(1 - betas, dim=0)

    for step in range(args.steps):
        latents = torch.randn(args.batch_size, 4, 32, 32, device=device)
        noise = torch.randn_like(latents)
        t = torch.randint(0, 1000, (args.batch_size,), device=device)
        noisy = add_noise(latents, noise, t, alphas_cumprod)
        with torch.autocast(device_type="cuda", dtype=torch.float16, enabled=args.fp16):
            noise_pred = unet(noisy, t)
            loss = F.mse_loss(noise_pred.float(), noise.float())
        scaler.scale(loss).backward()
        if args.clip_grad_norm is not None:
            torch.nn.utils.clip_grad_norm_(unet.parameters(), args.clip_grad_norm)  # expect: clip-before-unscale
        scaler.step(optimizer)
        scaler.update()
        optimizer.zero_grad(set_to_none=True)
        if step % 10 == 0:
            print(step, loss.item())


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--lr", type=float, default=5e-6)
    parser.add_argument("--steps", type=int, default=20)
    parser.add_argument("--batch_size", type=int, default=2)
    parser.add_argument("--fp16", action="store_true")
    parser.add_argument("--clip_grad_norm", type=float, default=1.0)
    main(parser.parse_args())
