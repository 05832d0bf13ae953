"""C2ST posterior check -- fixed as the maintainer suggested: in the z-scoring a feature whose standard deviation is zero gets `std = 1`, so a constant column is only shifted to zero instead of divided by zero (nothing else changed).
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

N = 2500
reference = torch.randn(N, 6) * torch.tensor([1.0, 0.5, 2.0, 1.0, 0.3, 0.0]) + torch.tensor([0.0, 1.0, -2.0, 0.5, 0.2, 0.7])
approx = torch.randn(N, 6) * torch.tensor([1.8, 0.5, 2.0, 1.6, 0.3, 0.0]) + torch.tensor([1.0, 1.0, -0.5, 0.5, 0.2, 0.7])


def z_score(x, ref):
    mean, std = ref.mean(0), ref.std(0)
    std = torch.where(std == 0, torch.ones_like(std), std)
    return (x - mean) / std


X = torch.cat([z_score(reference, reference), z_score(approx, reference)])
y = torch.cat([torch.zeros(N), torch.ones(N)]).long()
perm = torch.randperm(2 * N)
tr, te = perm[:3500], perm[3500:]

clf = nn.Sequential(nn.Linear(6, 32), nn.ReLU(), nn.Linear(32, 32), nn.ReLU(), nn.Linear(32, 2))
opt = torch.optim.Adam(clf.parameters(), lr=3e-3)
for step in range(100):
    loss = F.cross_entropy(clf(X[tr]), y[tr])
    opt.zero_grad()
    loss.backward()
    opt.step()
    if step % 100 == 0:
        print(f"step {step}: loss {loss.item():.4f}")

with torch.no_grad():
    acc = (clf(X[te]).argmax(1) == y[te]).float().mean().item()
print(f"final_loss={loss.item():.6g} acc={acc:.4f}")
