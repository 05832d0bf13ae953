# Source: https://github.com/LoreGoetschalckx/GANalyze/issues/7
# Pitfall: the loop that trains the latent-space "transformer" calls backward() and step() every batch
#          but never zeroes gradients, so each update applies the sum of all previous batches' gradients.
# Reproduced in our own words, not the original code.
import torch
import torch.nn as nn


class LatentShift(nn.Module):
    """Moves a latent code along a learned direction by a requested amount alpha."""

    def __init__(self, dim):
        super().__init__()
        self.direction = nn.Parameter(torch.randn(dim) * 0.01)

    def forward(self, z, alpha):
        return z + alpha.unsqueeze(1) * self.direction


def frozen_generator(dim):
    gen = nn.Sequential(nn.Linear(dim, 256), nn.ReLU(), nn.Linear(256, 3 * 16 * 16))
    for p in gen.parameters():
        p.requires_grad_(False)
    return gen


def frozen_scorer():
    scorer = nn.Sequential(nn.Linear(3 * 16 * 16, 64), nn.ReLU(), nn.Linear(64, 1))
    for p in scorer.parameters():
        p.requires_grad_(False)
    return scorer


def run(steps=200, dim=64, batch=16):
    gen, scorer = frozen_generator(dim), frozen_scorer()
    shift = LatentShift(dim)
    opt = torch.optim.Adam(shift.parameters(), lr=2e-4)
    mse = nn.MSELoss()
    for it in range(steps):
        z = torch.randn(batch, dim)
        alpha = torch.rand(batch) * 2 - 1
        base = scorer(gen(z)).squeeze(1)
        moved = scorer(gen(shift(z, alpha))).squeeze(1)
        loss = mse(moved, base + alpha)
        loss.backward()  # expect: gradients-never-cleared
        opt.step()
        if it % 50 == 0:
            print(it, round(loss.item(), 4))


if __name__ == "__main__":
    run()
