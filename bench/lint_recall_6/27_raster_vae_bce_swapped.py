# Source: https://github.com/autonomousvision/sledge/issues/4
# Pitfall: the VAE objective calls binary_cross_entropy_with_logits(target, prediction), i.e. the rasterised
#   ground truth is passed as the logits and the decoder output as the target, so the reconstruction term is wrong.
# Reproduced in our own words, not the original code.
import torch
import torch.nn as nn
import torch.nn.functional as F


class RasterVAE(nn.Module):
    def __init__(self, ch=8, latent=64):
        super().__init__()
        self.enc = nn.Sequential(nn.Conv2d(ch, 32, 4, 2, 1), nn.ReLU(), nn.Conv2d(32, 64, 4, 2, 1), nn.ReLU(), nn.Flatten())
        self.mu = nn.LazyLinear(latent)
        self.log_var = nn.LazyLinear(latent)
        self.dec_fc = nn.Linear(latent, 64 * 16 * 16)
        self.dec = nn.Sequential(nn.ConvTranspose2d(64, 32, 4, 2, 1), nn.ReLU(), nn.ConvTranspose2d(32, ch, 4, 2, 1))

    def forward(self, raster):
        h = self.enc(raster)
        mu, log_var = self.mu(h), self.log_var(h)
        z = mu + torch.randn_like(mu) * torch.exp(0.5 * log_var)
        logits = self.dec(self.dec_fc(z).view(-1, 64, 16, 16))
        return logits, mu, log_var


def vae_objective(pred_logits, target_raster, mu, log_var, kl_weight=1e-3):
    recon = F.binary_cross_entropy_with_logits(target_raster, pred_logits)  # expect: loss-arguments-swapped
    kl = -0.5 * torch.mean(torch.sum(1 + log_var - mu.pow(2) - log_var.exp(), dim=1))
    return recon + kl_weight * kl


def train_step(model, optimizer, raster):
    model.train()
    optimizer.zero_grad()
    logits, mu, log_var = model(raster)
    loss = vae_objective(logits, raster, mu, log_var)
    loss.backward()
    optimizer.step()
    return loss.item()
