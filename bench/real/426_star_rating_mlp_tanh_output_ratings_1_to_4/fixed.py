"""Neural collaborative-filtering rating model -- fixed as the answer advises: the tanh on the output node is removed,
so the last layer is linear and can produce ratings between 1 and 4 (nothing else changed).
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

N_USERS, N_ITEMS = 150, 100
U, V = torch.randn(N_USERS, 4), torch.randn(N_ITEMS, 4)
item_bias = 0.6 * torch.randn(N_ITEMS)


def ratings(n):
    u, i = torch.randint(0, N_USERS, (n,)), torch.randint(0, N_ITEMS, (n,))
    raw = 2.5 + 0.45 * (U[u] * V[i]).sum(1) + item_bias[i] + 0.25 * torch.randn(n)
    return u, i, raw.round().clamp(1, 4)


class RatingNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.users = nn.Embedding(N_USERS, 8)
        self.items = nn.Embedding(N_ITEMS, 8)
        self.mlp = nn.Sequential(nn.Linear(16, 32), nn.ReLU(), nn.Linear(32, 1))

    def forward(self, u, i):
        return self.mlp(torch.cat([self.users(u), self.items(i)], 1)).squeeze(1)


u_tr, i_tr, r_tr = ratings(16000)
u_te, i_te, r_te = ratings(3000)
loader = DataLoader(TensorDataset(u_tr, i_tr, r_tr), batch_size=128, shuffle=True)
model = RatingNet()
opt = torch.optim.Adam(model.parameters(), lr=1e-2)
loss_fn = nn.MSELoss()
for epoch in range(12):
    total = 0.0
    for u, i, r in loader:
        loss = loss_fn(model(u, i), r)
        opt.zero_grad()
        loss.backward()
        opt.step()
        total += loss.item() * len(r)
    with torch.no_grad():
        val = loss_fn(model(u_te, i_te), r_te).item()
    print(f"epoch {epoch} train mse {total / len(r_tr):.4f} val mse {val:.4f}")

with torch.no_grad():
    pred = model(u_te, i_te)
    exact = (pred.round().clamp(1, 4) == r_te).float().mean().item()
print(f"final_loss={val:.6g} acc={exact:.4f}")
