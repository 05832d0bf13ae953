"""GAN wrapped in a class whose step() never clears the discriminator's gradients.

Source: https://github.com/Adversarial-Deep-Learning/code-soup/issues/69 (Zero Grad and Generator error missing in GAN)
Report: "add self.discriminator.zero_grad() also return an additional argument errG from step
method of GAN class" (fixed by PR #73/#74: "added zero_grad() method for discriminator"). The
step() method follows the DCGAN recipe (real batch backward, fake batch backward, optimizerD.step,
then the generator update through D) but only the generator is zeroed, so D's .grad keeps the sum
of every step's real/fake gradients plus the generator-loss gradients that flow into D's
parameters. Reproduced with a 1-D GAN (Dev Nag's "GAN in 50 lines": fit N(4, 1.25)); `acc` is one
minus the total-variation distance between histograms of generated and real samples.

expect: missing-zero-grad
symptom: acc-below 0.3
batch: 3
"""
import argparse

import torch
import torch.nn as nn

parser = argparse.ArgumentParser()
parser.add_argument("--seed", type=int, default=0)
args = parser.parse_args()
torch.manual_seed(args.seed)
torch.set_num_threads(1)

REAL_MU, REAL_SIGMA = 4.0, 1.25


class Generator(nn.Module):
    def __init__(self):
        super().__init__()
        self.main = nn.Sequential(nn.Linear(8, 32), nn.ELU(), nn.Linear(32, 32), nn.ELU(), nn.Linear(32, 1))

    def forward(self, z):
        return self.main(z)


class Discriminator(nn.Module):
    def __init__(self):
        super().__init__()
        self.main = nn.Sequential(nn.Linear(1, 32), nn.ELU(), nn.Linear(32, 32), nn.ELU(), nn.Linear(32, 1),
                                  nn.Sigmoid())

    def forward(self, x):
        return self.main(x)


class GAN:
    def __init__(self, lr=2e-4):
        self.generator = Generator()
        self.discriminator = Discriminator()
        self.criterion = nn.BCELoss()
        self.optimizerD = torch.optim.Adam(self.discriminator.parameters(), lr=lr, betas=(0.5, 0.999))
        self.optimizerG = torch.optim.Adam(self.generator.parameters(), lr=lr, betas=(0.5, 0.999))

    def step(self, real):
        b = real.shape[0]
        real_label, fake_label = torch.ones(b, 1), torch.zeros(b, 1)
        # (1) update D: maximize log(D(x)) + log(1 - D(G(z)))
        output = self.discriminator(real)
        errD_real = self.criterion(output, real_label)
        errD_real.backward()
        fake = self.generator(torch.randn(b, 8))
        output = self.discriminator(fake.detach())
        errD_fake = self.criterion(output, fake_label)
        errD_fake.backward()
        errD = errD_real + errD_fake
        self.optimizerD.step()
        # (2) update G: maximize log(D(G(z)))
        self.generator.zero_grad()
        output = self.discriminator(fake)
        errG = self.criterion(output, real_label)
        errG.backward()
        self.optimizerG.step()
        return errD.item(), errG.item()


def tv_overlap(fake, real, bins=40):
    lo, hi = -2.0, 10.0
    hf = torch.histc(fake.clamp(lo, hi), bins, lo, hi) / len(fake)
    hr = torch.histc(real.clamp(lo, hi), bins, lo, hi) / len(real)
    return 1 - 0.5 * (hf - hr).abs().sum().item()


gan = GAN()
d_losses = []
for it in range(1500):
    real = REAL_MU + REAL_SIGMA * torch.randn(64, 1)
    errD, errG = gan.step(real)
    d_losses.append(errD)
    if it % 100 == 0:
        with torch.no_grad():
            f = gan.generator(torch.randn(2000, 8))
        print(f"iter {it} errD {errD:.4f} errG {errG:.4f} fake mean {f.mean():.3f} std {f.std():.3f}")

with torch.no_grad():
    fake = gan.generator(torch.randn(20000, 8))
acc = tv_overlap(fake, REAL_MU + REAL_SIGMA * torch.randn(20000, 1))
print(f"fake mean {fake.mean():.3f} std {fake.std():.3f} (real {REAL_MU} {REAL_SIGMA})")
print(f"final_loss={sum(d_losses[-10:]) / 10:.6g} acc={acc:.4f}")
