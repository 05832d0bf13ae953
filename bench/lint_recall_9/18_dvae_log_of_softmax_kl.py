# Source: https://github.com/lucidrains/DALLE-pytorch/commit/7289df71e2e9b28e6d305031b2f8948ccf588182
# Pitfall: the discrete VAE takes softmax over codebook logits and then torch.log(q + 1e-10) for the KL term;
#   underflowed probabilities are clamped to log(1e-10) and the gradient through them is lost, unlike log_softmax.
# Reproduced in our own words, not the original code.
import math

import torch
import torch.nn as nn
import torch.nn.functional as F


class TokenVAE(nn.Module):
    def __init__(self, num_tokens=512, dim=64, tau=0.9, kl_weight=1.0):
        super().__init__()
        self.num_tokens = num_tokens
        self.tau = tau
        self.kl_weight = kl_weight
        self.encoder = nn.Sequential(
            nn.Conv2d(3, dim, 4, 2, 1), nn.ReLU(),
            nn.Conv2d(dim, dim, 4, 2, 1), nn.ReLU(),
            nn.Conv2d(dim, num_tokens, 1),
        )
        self.codebook = nn.Embedding(num_tokens, dim)
        self.decoder = nn.Sequential(
            nn.ConvTranspose2d(dim, dim, 4, 2, 1), nn.ReLU(),
            nn.ConvTranspose2d(dim, 3, 4, 2, 1),
        )

    def forward(self, img):
        logits = self.encoder(img)
        soft_one_hot = F.gumbel_softmax(logits, tau=self.tau, dim=1)
        sampled = torch.einsum("bnhw,nd->bdhw", soft_one_hot, self.codebook.weight)
        recon = self.decoder(sampled)
        recon_loss = F.mse_loss(recon, img)

        flat = logits.flatten(2).transpose(1, 2)
        qy = F.softmax(flat, dim=-1)
        log_qy = torch.log(qy + 1e-10)  # expect: log-of-softmax
        log_uniform = torch.full_like(log_qy, -math.log(self.num_tokens))
        kl = F.kl_div(log_uniform, log_qy, reduction="batchmean", log_target=True)
        return recon_loss + self.kl_weight * kl


def train(vae, loader, steps=10000, lr=1e-3):
    opt = torch.optim.Adam(vae.parameters(), lr=lr)
    vae.train()
    it = iter(loader)
    for step in range(steps):
        try:
            images = next(it)
        except StopIteration:
            it = iter(loader)
            images = next(it)
        loss = vae(images.cuda())
        opt.zero_grad()
        loss.backward()
        opt.step()
        if step % 100 == 0:
            print(step, loss.item())
