"""Sparse autoencoder for model activations (a dictionary-learning layer: ReLU encoder with
pre-encoder bias, linear decoder with unit-norm dictionary columns, reconstruction MSE plus an
L1 sparsity penalty, plain SGD, DataLoader over a buffer of activation vectors). The training
step reduces the per-example losses over the batch with `.sum()` instead of `.mean()`, so the
gradient -- and with plain SGD the size of every step -- is multiplied by the batch size of
1,024; the learning rate that suits an averaged loss becomes a thousand times too large and the
weights blow up to inf/NaN within the first updates.

Source: https://github.com/ai-safety-foundation/sparse_autoencoder/issues/63 (Should we use mean rather than sum for batchwise loss reduction?)
Report: "I went with \".mean()\" rather than \".sum()\" in the training pipeline because of this
logic (you don't want loss magnitude to depend on batch size)" -- "the loss scale (and gradients)
depend on the batch size, so you would probably need to change the learning rate based on the
batch size" -- the maintainer: "No good reason for this!", fixed by switching the loss to mean.
Reproduced with 40,960 synthetic 64-dimensional "activations" made of sparse combinations of 256
ground-truth feature directions plus noise, a 64-256 autoencoder, L1 coefficient 1e-3, SGD lr 0.01
with momentum 0.9, batches of 1,024, 6 epochs. The printed loss is the mean training loss per
example of the last epoch, `acc` the fraction of variance explained on 4,096 held-out vectors.

expect: loss-reduction
symptom: nonfinite
batch: 12
"""
import argparse

import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset

ap = argparse.ArgumentParser()
ap.add_argument("--seed", type=int, default=0)
args = ap.parse_args()
torch.manual_seed(args.seed)
torch.set_num_threads(1)

D, F_, N = 64, 256, 40960
features = nn.functional.normalize(torch.randn(F_, D), dim=1)


def sample(n):
    active = (torch.rand(n, F_) < 0.02).float() * torch.rand(n, F_) * 2
    return active @ features + 0.05 * torch.randn(n, D)


train_x, test_x = sample(N), sample(4096)


class SparseAutoencoder(nn.Module):
    def __init__(self):
        super().__init__()
        self.b_pre = nn.Parameter(torch.zeros(D))
        self.enc = nn.Linear(D, F_)
        self.dec = nn.Parameter(nn.functional.normalize(torch.randn(D, F_), dim=0))

    def forward(self, x):
        h = torch.relu(self.enc(x - self.b_pre))
        return h @ self.dec.T + self.b_pre, h


sae = SparseAutoencoder()
opt = torch.optim.SGD(sae.parameters(), lr=0.01, momentum=0.9)
loader = DataLoader(TensorDataset(train_x), batch_size=1024, shuffle=True)
L1 = 1e-3

for epoch in range(6):
    total, count = 0.0, 0
    for (x,) in loader:
        recon, h = sae(x)
        per_example = ((recon - x) ** 2).sum(1) + L1 * h.abs().sum(1)
        loss = per_example.sum()
        opt.zero_grad()
        loss.backward()
        opt.step()
        with torch.no_grad():
            sae.dec.data = nn.functional.normalize(sae.dec.data, dim=0)
        total += per_example.sum().item()
        count += len(x)
    print(f"epoch {epoch} loss {total / count:.4f}")

with torch.no_grad():
    recon, _ = sae(test_x)
    fve = 1 - ((recon - test_x) ** 2).sum() / ((test_x - test_x.mean(0)) ** 2).sum()
print(f"final_loss={total / count:.6g} acc={fve.item():.4f}")
