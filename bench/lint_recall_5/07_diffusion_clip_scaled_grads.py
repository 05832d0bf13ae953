# Source: https://github.com/victorchall/EveryDream2trainer/pull/175
# Pitfall: with AMP on, --clip_grad_scale clips the gradients while the GradScaler still has them multiplied
#          by the loss scale (~65536), so a threshold like 1.0 effectively halts training.
# Reproduced in our own words, not the original code.
import argparse

import torch
import torch.nn as nn


def parse():
    ap = argparse.ArgumentParser()
    ap.add_argument("--clip_grad_scale", type=float, default=1.0)
    ap.add_argument("--amp", action="store_true")
    ap.add_argument("--steps", type=int, default=100)
    return ap.parse_args()


class NoisePredictor(nn.Module):
    def __init__(self, ch=4):
        super().__init__()
        self.net = nn.Sequential(nn.Conv2d(ch + 1, 64, 3, padding=1), nn.SiLU(), nn.Conv2d(64, ch, 3, padding=1))

    def forward(self, latents, t):
        t_map = t.view(-1, 1, 1, 1).expand(-1, 1, *latents.shape[2:])
        return self.net(torch.cat([latents, t_map], dim=1))


def main():
    args = parse()
    unet = NoisePredictor().cuda()
    optimizer = torch.optim.AdamW(unet.parameters(), lr=1e-5)
    scaler = torch.cuda.amp.GradScaler(enabled=args.amp)
    for step in range(args.steps):
        latents = torch.randn(4, 4, 32, 32, device="cuda")
        noise = torch.randn_like(latents)
        t = torch.rand(4, device="cuda")
        noisy = latents * (1 - t.view(-1, 1, 1, 1)) + noise * t.view(-1, 1, 1, 1)
        with torch.autocast("cuda", enabled=args.amp):
            pred = unet(noisy, t)
            loss = nn.functional.mse_loss(pred.float(), noise)
        scaler.scale(loss).backward()
        if args.clip_grad_scale > 0:
            torch.nn.utils.clip_grad_norm_(unet.parameters(), args.clip_grad_scale)  # expect: clip-before-unscale
        scaler.step(optimizer)
        scaler.update()
        optimizer.zero_grad(set_to_none=True)
        if step % 20 == 0:
            print(step, loss.item())


if __name__ == "__main__":
    main()
