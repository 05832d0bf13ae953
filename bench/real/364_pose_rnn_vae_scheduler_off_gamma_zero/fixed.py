"""Behaviour-segmentation RNN-VAE -- fixed as the report proposes: with the scheduler switched off the
StepLR is built with gamma 1 instead of 0, so the learning rate stays at 3e-3 for the whole run instead
of dropping to zero at the first milestone (nothing else changed).
"""
import argparse

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.optim.lr_scheduler import StepLR
from torch.utils.data import DataLoader, TensorDataset

ap = argparse.ArgumentParser()
ap.add_argument("--seed", type=int, default=0)
args = ap.parse_args()
torch.manual_seed(args.seed)
torch.set_num_threads(1)

FRAMES, COORDS, LATENT, HIDDEN = 30, 6, 8, 48
CONFIG = {"optimizer_scheduler": False, "scheduler_step_size": 2, "epochs": 24}


def make_windows(n):
    t = torch.arange(FRAMES).float()[None, :, None]
    freq = 0.15 + 0.35 * torch.rand(n, 1, COORDS)
    phase = 6.28 * torch.rand(n, 1, COORDS)
    amp = 0.5 + torch.rand(n, 1, COORDS)
    return amp * torch.sin(freq * t + phase) + 0.05 * torch.randn(n, FRAMES, COORDS)


class RNNVAE(nn.Module):
    def __init__(self):
        super().__init__()
        self.enc = nn.GRU(COORDS, HIDDEN, batch_first=True)
        self.to_stats = nn.Linear(HIDDEN, 2 * LATENT)
        self.from_z = nn.Linear(LATENT, HIDDEN)
        self.dec = nn.GRU(COORDS, HIDDEN, batch_first=True)
        self.out = nn.Linear(HIDDEN, COORDS)

    def forward(self, x):
        mu, logvar = self.to_stats(self.enc(x)[1][-1]).chunk(2, dim=1)
        z = mu + torch.randn_like(mu) * (0.5 * logvar).exp() if self.training else mu
        h0 = torch.tanh(self.from_z(z))[None]
        shifted = torch.cat([torch.zeros_like(x[:, :1]), x[:, :-1]], dim=1)
        return self.out(self.dec(shifted, h0)[0]), mu, logvar


train_x, held_x = make_windows(800), make_windows(200)
loader = DataLoader(TensorDataset(train_x), batch_size=64, shuffle=True)
model = RNNVAE()
optimizer = torch.optim.Adam(model.parameters(), lr=3e-3)
if CONFIG["optimizer_scheduler"]:
    scheduler = StepLR(optimizer, step_size=CONFIG["scheduler_step_size"], gamma=0.2, last_epoch=-1)
else:
    scheduler = StepLR(optimizer, step_size=CONFIG["scheduler_step_size"], gamma=1, last_epoch=-1)

for epoch in range(CONFIG["epochs"]):
    model.train()
    for (x,) in loader:
        recon, mu, logvar = model(x)
        kl = -0.5 * (1 + logvar - mu ** 2 - logvar.exp()).sum(1).mean()
        loss = F.mse_loss(recon, x) + 0.01 * kl
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    scheduler.step()
    if epoch % 4 == 3:
        print(f"epoch {epoch + 1} loss {loss.item():.4f} lr {optimizer.param_groups[0]['lr']:.2e}")

model.eval()
with torch.no_grad():
    per_window = ((model(held_x)[0] - held_x) ** 2).mean(dim=(1, 2))
print(f"final_loss={per_window.mean().item():.6g} acc={(per_window < 0.05).float().mean().item():.4f}")
