"""SRGAN: after each epoch, super-resolve the validation set and log PSNR."""
import math

import torch
import torch.nn.functional as F


def psnr(sr, hr):
    mse = F.mse_loss(sr, hr).item()
    return 10 * math.log10(1.0 / max(mse, 1e-10))


def run_epoch(netG, netD, optimizerG, optimizerD, train_loader, device):
    netG.train()
    netD.train()
    for lr_img, hr_img in train_loader:
        lr_img, hr_img = lr_img.to(device), hr_img.to(device)
        fake = netG(lr_img)
        optimizerD.zero_grad()
        d_loss = 1 - netD(hr_img).mean() + netD(fake.detach()).mean()
        d_loss.backward()
        optimizerD.step()
        optimizerG.zero_grad()
        g_loss = F.mse_loss(fake, hr_img) + 1e-3 * (1 - netD(fake).mean())
        g_loss.backward()
        optimizerG.step()


def validate(netG, val_loader, device):
    netG.eval()
    scores = []
    for val_lr, val_hr in val_loader:
        lr_img = val_lr.to(device)
        hr_img = val_hr.to(device)
        sr = netG(lr_img)  # expect: validation-in-train-mode
        scores.append(psnr(sr.clamp(0, 1), hr_img))
    netG.train()
    return sum(scores) / max(len(scores), 1)
