"""Variational autoencoder for 16x16 glyphs (MLP encoder/decoder, Bernoulli output, BCE + KL, Adam lr 1e-3) fed through a training input pipeline.

Fixed: the training input pipeline no longer divides the already [0, 1]-scaled batch by 255 a second time,
so the model trains on images with the same [0, 1] scale it is evaluated on.
"""
import argparse

import torch
import torch.nn as nn
import torch.nn.functional as F

ap = argparse.ArgumentParser()
ap.add_argument("--seed", type=int, default=0)
args = ap.parse_args()
torch.manual_seed(args.seed)
torch.set_num_threads(1)

S, Z = 16, 8
base = torch.zeros(3, S, S)
base[0, 3:13, 7:9] = 1
base[1, 7:9, 3:13] = 1
base[2, 3:13, 3:13] = torch.eye(10) + torch.eye(10).flip(1)


def glyphs(n):
    k = torch.randint(0, 3, (n,))
    img = torch.stack([torch.roll(base[j], torch.randint(-2, 3, (2,)).tolist(), (0, 1)) for j in k.tolist()])
    img = F.avg_pool2d(img[:, None], 3, 1, 1)[:, 0] * 1.8
    img = (img + 0.1 * torch.rand(n, S, S)).clamp(0, 1)
    return (img * 255).round().reshape(n, -1)


def load(raw):
    return raw / 255.0


def train_input_pipeline(batch):
    return batch


class VAE(nn.Module):
    def __init__(self):
        super().__init__()
        self.enc = nn.Sequential(nn.Linear(S * S, 128), nn.ReLU(), nn.Linear(128, 2 * Z))
        self.dec = nn.Sequential(nn.Linear(Z, 128), nn.ReLU(), nn.Linear(128, S * S))

    def forward(self, x):
        mu, logvar = self.enc(x).chunk(2, 1)
        z = mu + torch.randn_like(mu) * (0.5 * logvar).exp()
        return self.dec(z), mu, logvar


def vae_loss(logits, x, mu, logvar):
    rec = F.binary_cross_entropy_with_logits(logits, x, reduction="sum") / len(x)
    kl = -0.5 * (1 + logvar - mu ** 2 - logvar.exp()).sum() / len(x)
    return rec + kl


X_tr, X_te = load(glyphs(3000)), load(glyphs(500))
model = VAE()
opt = torch.optim.Adam(model.parameters(), lr=1e-3)
for epoch in range(15):
    for i in range(0, len(X_tr), 64):
        x = train_input_pipeline(X_tr[i:i + 64])
        logits, mu, logvar = model(x)
        loss = vae_loss(logits, x, mu, logvar)
        opt.zero_grad()
        loss.backward()
        opt.step()
    if epoch % 3 == 2:
        with torch.no_grad():
            val = F.binary_cross_entropy_with_logits(model.dec(model.enc(X_te).chunk(2, 1)[0]), X_te, reduction="sum").item() / len(X_te)
        print(f"epoch {epoch} loss {loss.item():.3f} held-out rec {val:.2f}")

with torch.no_grad():
    mu, _ = model.enc(X_te).chunk(2, 1)
    logits = model.dec(mu)
    rec = F.binary_cross_entropy_with_logits(logits, X_te, reduction="sum").item() / len(X_te)
    pred, ink = logits > 0, X_te > 0.5
    acc = ((pred & ink).sum() / (pred | ink).sum().clamp(min=1)).item()
print(f"final_loss={rec:.6g} acc={acc:.4f}")
