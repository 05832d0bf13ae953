"""Half-precision movie-rating matrix factorization trained with Adam: the same program with Adam's epsilon raised from 1e-8 (0 in float16) to 1e-4, so an entry whose squared gradient underflows to zero gets a bounded update instead of m / 0 = inf.
"""
import argparse

import torch
import torch.nn as nn

ap = argparse.ArgumentParser()
ap.add_argument("--seed", type=int, default=0)
args = ap.parse_args()
torch.manual_seed(args.seed)
torch.set_num_threads(1)

N_USERS, N_ITEMS, DIM, ADAM_EPS = 500, 800, 16, 1e-4
true_u = 0.6 * torch.randn(N_USERS, 4)
true_i = 0.6 * torch.randn(N_ITEMS, 4)
popularity = 1.0 / torch.arange(1, N_ITEMS + 1).float() ** 0.9


def ratings(n):
    u = torch.randint(0, N_USERS, (n,))
    i = torch.multinomial(popularity, n, replacement=True)
    r = (3.5 + (true_u[u] * true_i[i]).sum(1) + 0.3 * torch.randn(n)).clamp(1, 5)
    return u, i, r


class MF(nn.Module):
    def __init__(self):
        super().__init__()
        self.user = nn.Embedding(N_USERS, DIM)
        self.item = nn.Embedding(N_ITEMS, DIM)
        self.user_bias = nn.Embedding(N_USERS, 1)
        self.item_bias = nn.Embedding(N_ITEMS, 1)
        for emb in (self.user, self.item):
            nn.init.normal_(emb.weight, 0, 0.1)
        for emb in (self.user_bias, self.item_bias):
            nn.init.zeros_(emb.weight)

    def forward(self, u, i):
        dot = (self.user(u) * self.item(i)).sum(1)
        return 3.5 + dot + self.user_bias(u).squeeze(1) + self.item_bias(i).squeeze(1)


u_tr, i_tr, r_tr = ratings(40000)
u_te, i_te, r_te = ratings(8000)
model = MF().half()
opt = torch.optim.Adam(model.parameters(), lr=3e-3, eps=ADAM_EPS)
r_tr_h = r_tr.half()

for epoch in range(4):
    perm = torch.randperm(len(r_tr))
    total, steps = 0.0, 0
    for start in range(0, len(perm), 512):
        idx = perm[start:start + 512]
        pred = model(u_tr[idx], i_tr[idx])
        loss = ((pred - r_tr_h[idx]) ** 2).mean()
        opt.zero_grad()
        loss.backward()
        opt.step()
        total += loss.float().item()
        steps += 1
    with torch.no_grad():
        pred = model(u_te, i_te).float()
        test_mse = ((pred - r_te) ** 2).mean().item()
        acc = ((pred - r_te).abs() < 0.5).float().mean().item()
    print(f"epoch {epoch} train {total / steps:.4f} test {test_mse:.4f} within0.5 {acc:.3f}")

print(f"final_loss={test_mse:.6g} acc={acc:.4f}")
