"""expect: healthy. A two-tower recommender (user and item embeddings, dot product, BCE on
clicks with sampled negatives), Adagrad, batch 256, with a small eval every 50 steps."""
import argparse

import torch
import torch.nn.functional as F
from torch import nn


class TwoTower(nn.Module):
    def __init__(self, users=500, items=800, d=16):
        super().__init__()
        self.u = nn.Embedding(users, d)
        self.i = nn.Embedding(items, d)
        self.ub = nn.Embedding(items, 1)

    def forward(self, u, i):
        return (self.u(u) * self.i(i)).sum(-1) + self.ub(i).squeeze(-1)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--seed", type=int, default=0)
    a = ap.parse_args()
    g = torch.Generator().manual_seed(a.seed)
    torch.manual_seed(a.seed)
    U, I = torch.randn(500, 4, generator=g), torch.randn(800, 4, generator=g)

    def sample(n):
        u = torch.randint(0, 500, (n,), generator=g)
        i = torch.randint(0, 800, (n,), generator=g)
        p = torch.sigmoid(2 * (U[u] * I[i]).sum(1))
        return u, i, (torch.rand(n, generator=g) < p).float()

    model = TwoTower()
    opt = torch.optim.Adagrad(model.parameters(), lr=0.1)
    ev = sample(2000)
    for step in range(300):
        u, i, y = sample(256)
        loss = F.binary_cross_entropy_with_logits(model(u, i), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
        if step % 50 == 49:
            with torch.no_grad():
                F.binary_cross_entropy_with_logits(model(ev[0], ev[1]), ev[2])


if __name__ == "__main__":
    main()
