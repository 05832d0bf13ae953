"""Adversarial feature alignment for a segmentation net (style discriminator)."""
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch import optim


class StyleDiscriminator(nn.Module):
    def __init__(self, channels=64):
        super().__init__()
        self.net = nn.Sequential(
            nn.Conv2d(channels, 128, 3, 2, 1), nn.LeakyReLU(0.2),
            nn.Conv2d(128, 1, 3, 1, 1),
        )

    def forward(self, x):
        return self.net(x)


def train_epoch(seg_net, disc, loader, cfg, seg_opt, device="cuda"):
    seg_net.train()
    disc.train()
    for step, (full_img, missing_img, mask) in enumerate(loader):
        full_img, missing_img, mask = full_img.to(device), missing_img.to(device), mask.to(device)

        feat_full, _ = seg_net(full_img)
        feat_missing, pred = seg_net(missing_img)
        seg_loss = F.binary_cross_entropy_with_logits(pred, mask)
        adv_logits = disc(feat_missing)
        adv_loss = F.binary_cross_entropy_with_logits(adv_logits, torch.ones_like(adv_logits))
        seg_opt.zero_grad()
        (seg_loss + cfg["lambda_adv"] * adv_loss).backward()
        seg_opt.step()

        d_opt = optim.Adam(disc.parameters(), lr=cfg["lr"], betas=(0.9, 0.99))  # expect: optimizer-rebuilt-each-step
        real = disc(feat_full.detach())
        fake = disc(feat_missing.detach())
        d_loss = F.binary_cross_entropy_with_logits(real, torch.ones_like(real)) + \
            F.binary_cross_entropy_with_logits(fake, torch.zeros_like(fake))
        d_opt.zero_grad()
        d_loss.backward()
        d_opt.step()
        if step % 50 == 0:
            print(f"step {step} seg {seg_loss.item():.4f} d {d_loss.item():.4f}")
