# Source: https://github.com/idiap/coqui-ai-Trainer/pull/20
# Pitfall: in GAN vocoder training the discriminator only starts updating after a warm-up, but its LR
#   scheduler is stepped from the first iteration; the scheduler runs before its optimizer ever steps.
# Reproduced in our own words, not the original code.
import torch
import torch.nn as nn
import torch.nn.functional as F


def train_gan(gen, disc, loader, disc_start_step=10000, total_steps=100000):
    opt_g = torch.optim.AdamW(gen.parameters(), lr=2e-4, betas=(0.8, 0.99))
    opt_d = torch.optim.AdamW(disc.parameters(), lr=2e-4, betas=(0.8, 0.99))
    sched_g = torch.optim.lr_scheduler.ExponentialLR(opt_g, gamma=0.999)
    sched_d = torch.optim.lr_scheduler.ExponentialLR(opt_d, gamma=0.999)
    gen.train()
    disc.train()
    step = 0
    for mel, audio in loader:
        fake = gen(mel)
        if step >= disc_start_step:
            opt_d.zero_grad()
            real_score, fake_score = disc(audio), disc(fake.detach())
            loss_d = F.mse_loss(real_score, torch.ones_like(real_score)) + F.mse_loss(fake_score, torch.zeros_like(fake_score))
            loss_d.backward()
            opt_d.step()
        opt_g.zero_grad()
        loss_g = F.l1_loss(fake, audio)
        if step >= disc_start_step:
            adv = disc(fake)
            loss_g = loss_g + F.mse_loss(adv, torch.ones_like(adv))
        loss_g.backward()
        opt_g.step()
        sched_g.step()
        sched_d.step()  # expect: scheduler-before-optimizer
        step += 1
        if step >= total_steps:
            break
