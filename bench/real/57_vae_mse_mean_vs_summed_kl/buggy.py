"""Gaussian (MSE) VAE whose reconstruction term is averaged over pixels while the KL is summed.

Source: https://github.com/orybkin/sigma-vae-pytorch/pull/12 (fix: mse_vae training broken due to incorrect averaging)
Report: "When training, the model generates blurry images and is unable to improve. Setting
MSELoss size_average to False fixes the issue"; the author: "that's definitely wrong!
size_average is incorrect because bigger images have more information so they should have a
larger MSE loss". With the reconstruction error averaged over every pixel of the batch and the KL
summed, the KL term dominates and the posterior collapses. Reproduced with an MLP VAE on small
synthetic images; `acc` is the fraction of pixel variance the reconstructions explain.

expect: loss-reduction
symptom: acc-below 0.3
batch: 2
"""
import argparse

import torch
import torch.nn as nn
import torch.nn.functional as F

ap = argparse.ArgumentParser()
ap.add_argument("--seed", type=int, default=0)
args = ap.parse_args()
torch.manual_seed(args.seed)

S = 16
yy, xx = torch.meshgrid(torch.arange(S).float(), torch.arange(S).float(), indexing="ij")


def images(n):
    c = 2 + torch.rand(n, 2, 1, 1) * (S - 4)
    return torch.exp(-((yy - c[:, 0]) ** 2 + (xx - c[:, 1]) ** 2) / 8.0).reshape(n, -1)


data = images(3000)


class VAE(nn.Module):
    def __init__(self, z_dim=4):
        super().__init__()
        self.enc = nn.Sequential(nn.Linear(S * S, 128), nn.ReLU())
        self.mu, self.logvar = nn.Linear(128, z_dim), nn.Linear(128, z_dim)
        self.dec = nn.Sequential(nn.Linear(z_dim, 128), nn.ReLU(), nn.Linear(128, S * S), nn.Sigmoid())

    def forward(self, x):
        h = self.enc(x)
        mu, logvar = self.mu(h), self.logvar(h)
        z = mu + torch.randn_like(mu) * torch.exp(0.5 * logvar)
        return self.dec(z), mu, logvar

    def loss_function(self, recon_x, x, mu, logvar):
        rec = F.mse_loss(recon_x, x, reduction="mean")
        kl = -0.5 * torch.sum(1 + logvar - mu.pow(2) - logvar.exp())
        return rec, kl


model = VAE()
optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
train_loader = torch.utils.data.DataLoader(data, batch_size=64, shuffle=True)
losses = []
for epoch in range(10):
    for x in train_loader:
        recon, mu, logvar = model(x)
        rec, kl = model.loss_function(recon, x, mu, logvar)
        loss = rec + kl
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        losses.append(loss.item() / len(x))
with torch.no_grad():
    x = data[:500]
    recon = model.dec(model.mu(model.enc(x)))
    acc = 1 - ((recon - x) ** 2).mean().item() / ((x - x.mean(0)) ** 2).mean().item()
print(f"final_loss={sum(losses[-10:]) / 10:.6g} acc={acc:.4f}")
