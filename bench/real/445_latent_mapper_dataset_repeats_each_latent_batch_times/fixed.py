"""Latent-editing mapper in the StyleCLIP style: the same program with the training set configured from `n_latents` distinct latent codes instead of `n_latents // batch_size` codes each repeated `batch_size` times, so the mapper is fit to 4,096 distinct latents and generalizes to new ones.
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

DIM, N_LATENTS, BATCH = 32, 4096, 16
teacher = nn.Sequential(nn.Linear(DIM, 64), nn.Tanh(), nn.Linear(64, DIM))
for p in teacher.parameters():
    p.requires_grad_(False)


def target_edit(w):
    return 0.5 * teacher(w)


def configure_datasets(n_latents, batch_size):
    return torch.randn(n_latents, DIM)


class Mapper(nn.Module):
    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(DIM, 128), nn.LeakyReLU(0.2), nn.Linear(128, 128), nn.LeakyReLU(0.2),
                                 nn.Linear(128, DIM))

    def forward(self, w):
        return self.net(w)


w_tr = configure_datasets(N_LATENTS, BATCH)
d_tr = target_edit(w_tr)
w_te = torch.randn(1000, DIM)
d_te = target_edit(w_te)

mapper = Mapper()
opt = torch.optim.Adam(mapper.parameters(), lr=1e-3)
for epoch in range(10):
    perm = torch.randperm(len(w_tr))
    for i in range(0, len(perm), BATCH):
        idx = perm[i:i + BATCH]
        loss = F.mse_loss(mapper(w_tr[idx]), d_tr[idx])
        opt.zero_grad()
        loss.backward()
        opt.step()
    print(f"epoch {epoch} train mse {loss.item():.5f}")

with torch.no_grad():
    pred = mapper(w_te)
    test_mse = F.mse_loss(pred, d_te).item()
    acc = ((pred - d_te).norm(dim=1) < 0.5 * d_te.norm(dim=1)).float().mean().item()
print(f"final_loss={test_mse:.6g} acc={acc:.4f}")
