# Source: https://github.com/guopengf/FL-MRCM/issues/10
# Pitfall: while fixing a memory leak the generator's adversarial loss was detached before being added to the
#   total loss, so backward() gets no gradient from the domain-alignment term and it silently stops training.
# Reproduced in our own words, not the original code.
import torch
import torch.nn as nn
import torch.nn.functional as F


class ReconNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.encoder = nn.Sequential(nn.Conv2d(2, 32, 3, padding=1), nn.ReLU(), nn.Conv2d(32, 32, 3, padding=1))
        self.decoder = nn.Conv2d(32, 1, 3, padding=1)

    def forward(self, kspace_img):
        z = self.encoder(kspace_img)
        return self.decoder(F.relu(z)), z


class DomainDiscriminator(nn.Module):
    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(nn.Conv2d(32, 16, 3, 2, 1), nn.ReLU(), nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Linear(16, 1))

    def forward(self, z):
        return self.net(z)


def local_step(net, disc, opt_g, inputs, target, lam=0.01):
    net.train()
    opt_g.zero_grad()
    recon, z = net(inputs)
    loss_rec = F.l1_loss(recon, target)
    d_out = disc(z)
    loss_adv_g = F.binary_cross_entropy_with_logits(d_out, torch.ones_like(d_out)).detach()  # expect: backward-without-graph
    loss = loss_rec + lam * loss_adv_g
    loss.backward()
    opt_g.step()
    return loss_rec.item(), loss_adv_g.item()
