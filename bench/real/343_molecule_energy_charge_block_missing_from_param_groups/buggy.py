"""Interatomic-potential style energy model for small charged molecules: each atom gets a descriptor (its species plus radial-basis sums over neighbours of every species), a per-atom MLP turns it into an atomic energy, and the molecular energy is their sum (MSE on energies, Adam). A charge pathway was added recently -- a zero-initialised linear layer that injects the molecule's total charge into every atom's hidden features -- but the optimizer is built from explicit parameter groups (to give each block its own weight decay) and the new block was never added to them. Its weights receive gradients but are never stepped, so they stay exactly zero: the charge never reaches the network and the energy differences between charge states, which dominate the spread of the targets, cannot be learned.

Source: https://github.com/ACEsuit/mace/issues/525 (Automatically add parameters to optimizer)
Report: "If a new parameter is added to the model, the parameters dont get trained. This is because
currently only certain parameters are explicitly added to the optimiser. This is done to be able to add
different weight decays for specific parameters." (desired: "a function that automatically adds any
parameters that don't have explicit optimisation parameters defined to be added to the optimiser with
default settings"). Reproduced with 3,000 synthetic molecules (6-12 atoms of 4 species in a box, total
charge -1/0/+1; energy = species reference energies + a pairwise radial term + a charge term), the model
above with hidden width 64, Adam lr 2e-3 with per-group weight decay, batch 64 molecules, 10 epochs. The
printed loss is the validation MSE (per-atom-normalised energy units) on 600 held-out molecules, `acc`
the fraction of validation molecules whose energy is predicted within 0.5.

expect: params-not-updated
symptom: final-loss-ratio 3
batch: 20
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
