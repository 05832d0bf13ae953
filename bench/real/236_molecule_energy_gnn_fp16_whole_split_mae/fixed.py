"""Molecular energy regressor trained in float16 mixed precision -- fixed as discussed in the issue:
the whole-split validation MAE is computed in float32 (predictions cast up instead of targets cast
down), so the summed error no longer overflows float16 (nothing else changed).
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

N_MAX, TYPES = 14, 5
atom_energy = torch.tensor([-90.0, -60.0, -75.0, -30.0, -110.0])
bond_energy = torch.randn(TYPES, TYPES) * 8
bond_energy = (bond_energy + bond_energy.T) / 2


def make_molecules(n):
    sizes = torch.randint(6, N_MAX + 1, (n,))
    mask = (torch.arange(N_MAX) < sizes[:, None]).float()
    types = torch.randint(0, TYPES, (n, N_MAX))
    x = F.one_hot(types, TYPES).float() * mask[..., None]
    adj = (torch.rand(n, N_MAX, N_MAX) < 0.25).float().triu(1)
    adj = (adj + adj.transpose(1, 2)) * mask[:, :, None] * mask[:, None, :]
    pair = bond_energy[types[:, :, None], types[:, None, :]]
    y = (atom_energy[types] * mask).sum(1) + (pair * adj).sum((1, 2)) / 2 + 5 * torch.randn(n)
    return x, adj, y


class MPNN(nn.Module):
    def __init__(self):
        super().__init__()
        self.inp = nn.Linear(TYPES, 32)
        self.msg1, self.msg2 = nn.Linear(32, 32), nn.Linear(32, 32)
        self.out = nn.Linear(32, 1)

    def forward(self, x, adj):
        h = F.relu(self.inp(x))
        h = F.relu(h + self.msg1(adj @ h))
        h = F.relu(h + self.msg2(adj @ h))
        return self.out(h.sum(1)).squeeze(-1)


train_x, train_adj, train_y = make_molecules(3000)
val_x, val_adj, val_y = make_molecules(6000)
mu, sd = train_y.mean(), train_y.std()
model = MPNN()
opt = torch.optim.Adam(model.parameters(), lr=3e-3)

for epoch in range(8):
    perm, total = torch.randperm(len(train_y)), 0.0
    for i in range(0, len(perm), 64):
        idx = perm[i:i + 64]
        with torch.autocast("cpu", dtype=torch.float16):
            pred = model(train_x[idx], train_adj[idx])
        loss = F.mse_loss(pred.float(), (train_y[idx] - mu) / sd)
        opt.zero_grad()
        loss.backward()
        opt.step()
        total += loss.item() * len(idx)
    print(f"epoch {epoch} train mse (standardised) {total / len(perm):.4f}")

with torch.no_grad(), torch.autocast("cpu", dtype=torch.float16):
    pred = model(val_x, val_adj) * sd + mu
    val_mae = (pred.float() - val_y).abs().sum() / len(val_y)
acc = ((pred.float() - val_y).abs() < 25).float().mean().item()
print(f"final_loss={val_mae.item():.6g} acc={acc:.4f}")
