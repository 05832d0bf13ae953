"""Fixed version of /buggy.py (the source and the report are in its docstring).

Fix: no activation after the final regression layer.
"""
import argparse

import torch
import torch.nn as nn

ap = argparse.ArgumentParser()
ap.add_argument("--seed", type=int, default=0)
args = ap.parse_args()
torch.manual_seed(args.seed)

n_aa, L, N = 20, 14, 2000
seqs = torch.randint(0, n_aa, (N, L))
lengths = torch.randint(7, L + 1, (N,))
pad = torch.arange(L)[None, :] >= lengths[:, None]
onehot = nn.functional.one_hot(seqs, n_aa).float() * (~pad)[..., None]
aa_mass = torch.rand(n_aa) + 0.5
charge = torch.randint(2, 4, (N,)).float()
ccs = (onehot @ aa_mass).sum(1) * 25 / charge ** 0.5 + 5 * torch.randn(N)  # grows with length and mass
target = (ccs - ccs.mean()) / ccs.std()
feat = torch.cat([onehot, charge[:, None, None].expand(N, L, 1) - 2], 2)


class CCSModel(nn.Module):
    def __init__(self):
        super().__init__()
        self.lstm = nn.LSTM(n_aa + 1, 32, batch_first=True)
        self.out = nn.Sequential(nn.Linear(32, 1))

    def forward(self, x):
        h, _ = self.lstm(x)
        return self.out(h[:, -1]).squeeze(1)


model = CCSModel()
opt = torch.optim.Adam(model.parameters(), lr=1e-2)
tr, va = slice(0, 1600), slice(1600, N)
losses = []
for epoch in range(6):
    perm = torch.randperm(1600)
    for k in range(0, 1600, 64):
        b = perm[k:k + 64]
        loss = nn.functional.mse_loss(model(feat[tr][b]), target[tr][b])
        opt.zero_grad()
        loss.backward()
        opt.step()
        losses.append(loss.item())
with torch.no_grad():
    pred = model(feat[va])
    acc = 1 - ((pred - target[va]) ** 2).mean().item() / target[va].var().item()
print(f"final_loss={sum(losses[-10:]) / 10:.6g} acc={acc:.4f}")
