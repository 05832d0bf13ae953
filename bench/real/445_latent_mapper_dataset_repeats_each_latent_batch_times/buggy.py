"""Latent-editing mapper in the StyleCLIP style: a small MLP learns to map generator latent codes w (dimension 32) to the edit that moves each code towards a target attribute (here the targets come from a fixed teacher edit function), fit with Adam on mini-batches of 16. The training set is configured by sampling `n_latents // batch_size` codes and repeating each one `batch_size` times, so the 4,096-entry training set contains only 256 distinct latents, each seen 16 times per epoch: the mapper is fit to 16x fewer distinct examples than intended, memorizes them, and generalizes clearly worse to new latents than the same mapper trained on 4,096 distinct codes.

Source: https://github.com/orpatashnik/StyleCLIP/pull/85 (Fix minor bug in coach.py, configure_datasets)
Report: "In configure_datasets, if batch_size or test_batch_size larger than 1, you will use a same sample multiple
times." Reproduced with synthetic latents (standard normal, dimension 32) and edit targets from a fixed random
teacher edit function; the fix samples `n_latents` distinct codes. The printed loss is the held-out MSE between the
mapper's edit and the target edit, `acc` the fraction of held-out latents whose edit error is below half the edit's
size.

expect: data-duplicates
symptom: final-loss-ratio 2
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

DIM, N_LATENTS, BATCH = 32, 4096, 16
teacher = nn.Sequential(nn.Linear(DIM, 64), nn.Tanh(), nn.Linear(64, DIM))
for p in teacher.parameters():
    p.requires_grad_(False)


def target_edit(w):
    return 0.5 * teacher(w)


def configure_datasets(n_latents, batch_size):
    latents = torch.randn(n_latents // batch_size, DIM)
    return latents.repeat_interleave(batch_size, dim=0)


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
