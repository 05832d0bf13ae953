"""Convolutional variational autoencoder for 16x16 glyph images, trained with Adam on the usual reconstruction (Bernoulli cross-entropy) + KL objective. Following a tutorial network but swapping its ReLU units for sigmoid units in every hidden layer (three conv layers and a dense layer in the encoder, two dense layers and two transposed-conv layers in the decoder) leaves an 8-layer chain of sigmoids whose derivative is at most 1/4: the error signal reaching the encoder shrinks by orders of magnitude (and the saturated units feed the next layers nearly constant inputs), the encoder never learns to use the latent code, the KL term pushes the posterior to the prior, and the decoder settles on the average glyph for every input.

Source: https://github.com/cdoersch/vae_tutorial/issues/5 (Understanding input to mu and logsd layers)
Report: "I have combined the VAE layers with convolution and deconvolution layers, and am having trouble training MNIST
with this new architecture. (Using Sigmoid neurons instead of ReLU, if that matters)." -- "In terms of your
difficulties in training, I suspect that the switch from ReLU to sigmoid is far more important ... ReLU's do a better
job ensuring that gradients don't vanish." Reproduced with 2,000 synthetic glyphs (10 stroke prototypes, random
shifts and stroke noise); the fix uses ReLU units in the hidden layers. The printed loss is the held-out negative ELBO
per image, `acc` the fraction of held-out glyphs whose reconstruction is closer to the input than the mean training
glyph is.

expect: vanishing-gradient
symptom: final-loss-ratio 1.2
batch: 27
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

Act = nn.Sigmoid
LATENT = 8


def make_prototypes():
    protos = torch.zeros(10, 16, 16)
    for k in range(10):
        for _ in range(3):
            if torch.rand(1) < 0.5:
                r, c0, c1 = torch.randint(3, 13, (1,)).item(), torch.randint(2, 7, (1,)).item(), torch.randint(9, 14, (1,)).item()
                protos[k, r:r + 2, c0:c1] = 1
            else:
                c, r0, r1 = torch.randint(3, 13, (1,)).item(), torch.randint(2, 7, (1,)).item(), torch.randint(9, 14, (1,)).item()
                protos[k, r0:r1, c:c + 2] = 1
    return protos


PROTOS = make_prototypes()


def make_glyphs(n):
    y = torch.randint(0, 10, (n,))
    imgs = PROTOS[y]
    shifts = torch.randint(-1, 2, (n, 2))
    imgs = torch.stack([torch.roll(im, (int(s[0]), int(s[1])), dims=(0, 1)) for im, s in zip(imgs, shifts)])
    flip = torch.rand_like(imgs) < 0.03
    return torch.where(flip, 1 - imgs, imgs).unsqueeze(1)


class VAE(nn.Module):
    def __init__(self):
        super().__init__()
        self.enc = nn.Sequential(
            nn.Conv2d(1, 16, 3, padding=1), Act(),
            nn.Conv2d(16, 32, 4, stride=2, padding=1), Act(),
            nn.Conv2d(32, 32, 4, stride=2, padding=1), Act(),
            nn.Flatten(), nn.Linear(32 * 16, 64), Act(),
        )
        self.mu, self.logvar = nn.Linear(64, LATENT), nn.Linear(64, LATENT)
        self.dec = nn.Sequential(
            nn.Linear(LATENT, 64), Act(), nn.Linear(64, 32 * 16), Act(), nn.Unflatten(1, (32, 4, 4)),
            nn.ConvTranspose2d(32, 32, 4, stride=2, padding=1), Act(),
            nn.ConvTranspose2d(32, 16, 4, stride=2, padding=1), Act(),
            nn.Conv2d(16, 1, 3, padding=1),
        )

    def forward(self, x):
        h = self.enc(x)
        mu, logvar = self.mu(h), self.logvar(h)
        z = mu + torch.randn_like(mu) * torch.exp(0.5 * logvar)
        return self.dec(z), mu, logvar


def neg_elbo(x, logits, mu, logvar):
    rec = F.binary_cross_entropy_with_logits(logits, x, reduction="sum") / x.size(0)
    kl = -0.5 * torch.sum(1 + logvar - mu ** 2 - logvar.exp()) / x.size(0)
    return rec + kl


x_tr, x_te = make_glyphs(2000), make_glyphs(400)
model = VAE()
opt = torch.optim.Adam(model.parameters(), lr=2e-3)
for epoch in range(8):
    perm = torch.randperm(len(x_tr))
    for i in range(0, len(perm), 32):
        xb = x_tr[perm[i:i + 32]]
        logits, mu, logvar = model(xb)
        loss = neg_elbo(xb, logits, mu, logvar)
        opt.zero_grad()
        loss.backward()
        opt.step()
    print(f"epoch {epoch} -elbo {loss.item():.2f}")

model.eval()
with torch.no_grad():
    logits, mu, logvar = model(x_te)
    test_loss = neg_elbo(x_te, logits, mu, logvar).item()
    recon_err = (torch.sigmoid(logits) - x_te).pow(2).sum(dim=(1, 2, 3))
    mean_err = (x_tr.mean(0, keepdim=True) - x_te).pow(2).sum(dim=(1, 2, 3))
    acc = (recon_err < mean_err).float().mean().item()
print(f"final_loss={test_loss:.6g} acc={acc:.4f}")
