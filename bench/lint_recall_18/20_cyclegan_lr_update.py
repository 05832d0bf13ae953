"""Unpaired image-to-image translation (CycleGAN-style) with linear learning-rate decay per epoch."""
import itertools
import time

import torch
import torch.nn as nn
from torch.optim import lr_scheduler


def get_scheduler(optimizer, n_epochs=100, n_epochs_decay=100, epoch_count=1):
    def lambda_rule(epoch):
        return 1.0 - max(0, epoch + epoch_count - n_epochs) / float(n_epochs_decay + 1)
    return lr_scheduler.LambdaLR(optimizer, lr_lambda=lambda_rule)


class CycleGANModel:
    def __init__(self, netG_A, netG_B, netD_A, netD_B, lr=2e-4, lambda_cyc=10.0):
        self.netG_A, self.netG_B, self.netD_A, self.netD_B = netG_A, netG_B, netD_A, netD_B
        self.criterionGAN = nn.MSELoss()
        self.criterionCycle = nn.L1Loss()
        self.lambda_cyc = lambda_cyc
        self.optimizer_G = torch.optim.Adam(itertools.chain(netG_A.parameters(), netG_B.parameters()),
                                            lr=lr, betas=(0.5, 0.999))
        self.optimizer_D = torch.optim.Adam(itertools.chain(netD_A.parameters(), netD_B.parameters()),
                                            lr=lr, betas=(0.5, 0.999))
        self.schedulers = [get_scheduler(self.optimizer_G), get_scheduler(self.optimizer_D)]

    def update_learning_rate(self):
        old_lr = self.optimizer_G.param_groups[0]["lr"]
        for scheduler in self.schedulers:
            scheduler.step()
        print(f"learning rate {old_lr:.7f} -> {self.optimizer_G.param_groups[0]['lr']:.7f}")

    def gan_loss(self, pred, is_real):
        target = torch.ones_like(pred) if is_real else torch.zeros_like(pred)
        return self.criterionGAN(pred, target)

    def optimize_parameters(self, real_A, real_B):
        fake_B, fake_A = self.netG_A(real_A), self.netG_B(real_B)
        for p in itertools.chain(self.netD_A.parameters(), self.netD_B.parameters()):
            p.requires_grad_(False)
        self.optimizer_G.zero_grad()
        loss_G = (self.gan_loss(self.netD_A(fake_B), True) + self.gan_loss(self.netD_B(fake_A), True)
                  + self.lambda_cyc * self.criterionCycle(self.netG_B(fake_B), real_A)
                  + self.lambda_cyc * self.criterionCycle(self.netG_A(fake_A), real_B))
        loss_G.backward()
        self.optimizer_G.step()
        for p in itertools.chain(self.netD_A.parameters(), self.netD_B.parameters()):
            p.requires_grad_(True)
        self.optimizer_D.zero_grad()
        loss_D = 0.5 * (self.gan_loss(self.netD_A(real_B), True) + self.gan_loss(self.netD_A(fake_B.detach()), False)
                        + self.gan_loss(self.netD_B(real_A), True) + self.gan_loss(self.netD_B(fake_A.detach()), False))
        loss_D.backward()
        self.optimizer_D.step()
        return loss_G.item(), loss_D.item()


def train(model, dataset, n_epochs=100, n_epochs_decay=100, epoch_count=1):
    for epoch in range(epoch_count, n_epochs + n_epochs_decay + 1):
        epoch_start = time.time()
        model.update_learning_rate()  # expect: scheduler-before-optimizer
        for real_A, real_B in dataset:
            loss_G, loss_D = model.optimize_parameters(real_A, real_B)
        print(f"End of epoch {epoch} \t G {loss_G:.3f} D {loss_D:.3f} \t Time Taken: {time.time() - epoch_start:.0f} sec")
