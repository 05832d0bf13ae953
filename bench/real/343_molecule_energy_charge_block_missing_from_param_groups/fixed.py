"""Interatomic-potential style energy model for charged molecules -- fixed as the issue proposes: the
new charge-embedding block's parameters are added to the optimizer with default settings, so the
zero-initialised charge pathway is trained along with the rest (nothing else changed).
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

SPECIES, MAX_ATOMS, RBF = 4, 12, 4
ref_energy = torch.tensor([-1.0, -2.5, -0.7, -3.1])
centers = torch.linspace(0.5, 3.0, RBF)


def molecules(n):
    n_atoms = torch.randint(6, MAX_ATOMS + 1, (n,))
    mask = torch.arange(MAX_ATOMS)[None, :] < n_atoms[:, None]
    species = torch.randint(SPECIES, (n, MAX_ATOMS))
    pos = torch.rand(n, MAX_ATOMS, 3) * 3.0
    charge = torch.randint(-1, 2, (n,)).float()
    d = torch.cdist(pos, pos) + torch.eye(MAX_ATOMS) * 100
    pair = mask[:, :, None] & mask[:, None, :]
    rbf = torch.exp(-((d[..., None] - centers) ** 2) / 0.3) * pair[..., None]
    onehot = F.one_hot(species, SPECIES).float() * mask[..., None]
    desc = torch.einsum("bijr,bjs->bisr", rbf, onehot).flatten(2)
    feats = torch.cat([onehot, desc], -1)
    energy = (ref_energy[species] * mask).sum(1) + 0.5 * (torch.exp(-d) * pair).sum((1, 2)) \
        + 2.0 * charge * n_atoms.float().sqrt() + 0.05 * torch.randn(n)
    return feats, mask.float(), charge, energy / n_atoms


class EnergyModel(nn.Module):
    def __init__(self, hidden=64):
        super().__init__()
        self.embedding = nn.Linear(SPECIES + SPECIES * RBF, hidden)
        self.interaction = nn.Sequential(nn.SiLU(), nn.Linear(hidden, hidden), nn.SiLU())
        self.charge_embedding = nn.Linear(1, hidden, bias=False)
        nn.init.zeros_(self.charge_embedding.weight)
        self.readout = nn.Linear(hidden, 1)

    def forward(self, feats, mask, charge):
        h = self.embedding(feats) + self.charge_embedding(charge[:, None, None].expand(-1, feats.shape[1], 1))
        e_atom = self.readout(self.interaction(h)).squeeze(-1)
        return (e_atom * mask).sum(1) / mask.sum(1)


F_tr, M_tr, Q_tr, E_tr = molecules(3000)
F_va, M_va, Q_va, E_va = molecules(600)
model = EnergyModel()
param_groups = [
    {"params": model.embedding.parameters(), "weight_decay": 0.0},
    {"params": model.interaction.parameters(), "weight_decay": 5e-7},
    {"params": model.readout.parameters(), "weight_decay": 0.0},
    {"params": model.charge_embedding.parameters()},
]
opt = torch.optim.Adam(param_groups, lr=2e-3)

for epoch in range(10):
    perm = torch.randperm(len(E_tr))
    for i in range(0, len(perm), 64):
        idx = perm[i:i + 64]
        loss = F.mse_loss(model(F_tr[idx], M_tr[idx], Q_tr[idx]), E_tr[idx])
        opt.zero_grad()
        loss.backward()
        opt.step()
    with torch.no_grad():
        pred = model(F_va, M_va, Q_va)
        val = F.mse_loss(pred, E_va).item()
        acc = ((pred - E_va).abs() < 0.5).float().mean().item()
    print(f"epoch {epoch} train {loss.item():.4f} val {val:.4f} acc {acc:.3f}")

print(f"final_loss={val:.6g} acc={acc:.4f}")
