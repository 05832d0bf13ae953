"""Molecular energy regressor (a two-layer message-passing network over dense adjacency matrices,
sum pooling, minibatch Adam) trained and evaluated in 16-bit mixed precision (CPU autocast with
float16). Training is fine -- the loss is computed on standardised targets per minibatch -- but the
validation metric is computed on the whole validation split at once, in the autocast dtype: the
de-standardised predictions are float16, the targets are cast to match them, and the summed absolute error over thousands of molecules
(in kcal/mol) exceeds the float16 maximum of 65504, so the reported validation MAE is inf.

Source: https://github.com/datamol-io/graphium/issues/406 (Mixed-precision overflow on GPU)
Report: "When using `trainer.trainer.precision: 16` or `16-mixed`, some task metrics are `NaN` or
`0` in the validation/test split. Upon further debugging I saw that there all the available graphs
in the split are being used at once for the computation of the final metric. Then, a fp16 overflow
appears to happen that sets the result to `NaN`. Setting `trainer.trainer.precision: 32` solves the
issue." Reproduced with 3,000 training and 6,000 validation random molecules (6 to 14 atoms of 5
types, random bonds; the energy is a sum of per-atom and per-bond terms, around -1,000 kcal/mol with
noise), a 5-32-32-1 message-passing net, Adam lr 3e-3, batch 64, 8 epochs under
torch.autocast("cpu", dtype=torch.float16). The printed loss is the validation MAE in kcal/mol,
`acc` the fraction of validation molecules predicted within 25 kcal/mol (computed in float32).

expect: fp16-overflow
symptom: nonfinite
batch: 14
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
    val_mae = (pred - val_y.to(pred.dtype)).abs().sum() / len(val_y)
acc = ((pred.float() - val_y).abs() < 25).float().mean().item()
print(f"final_loss={val_mae.item():.6g} acc={acc:.4f}")
