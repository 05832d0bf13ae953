"""Fault: unstable-op. Bag-of-words document embeddings normalized by hand,
v / v.norm(dim=-1, keepdim=True), for a cosine-similarity retrieval loss. A few documents
contain only out-of-vocabulary tokens, which all map to the padding index (a zero
vector): their bag is the zero vector, 0 / 0 = NaN, and the NaN reaches the loss and the
weights.

Mechanism: 0/0 in a hand-written normalization (no eps, no F.normalize).
"""
import argparse

import torch
from torch import nn


class DualEncoder(nn.Module):
    def __init__(self, vocab=3000, d=48):
        super().__init__()
        self.q = nn.EmbeddingBag(vocab, d, mode="sum", padding_idx=0)
        self.d = nn.EmbeddingBag(vocab, d, mode="sum", padding_idx=0)

    @staticmethod
    def unit(v):
        return v / v.norm(dim=-1, keepdim=True)

    def forward(self, q, d):
        return self.unit(self.q(q)) @ self.unit(self.d(d)).T * 20.0


def make(seed, n=4000, L=12, vocab=3000):
    g = torch.Generator().manual_seed(seed)
    topics = torch.randint(0, 50, (n,), generator=g)
    base = topics[:, None] * 50 + 1
    q = base + torch.randint(0, 50, (n, L), generator=g)
    d = base + torch.randint(0, 50, (n, L), generator=g)
    oov = torch.randperm(n, generator=g)[:5]
    d[oov] = 0                                    # every token out of vocabulary
    return q, d


def run(seed, steps):
    torch.manual_seed(seed)
    q, d = make(seed)
    model = DualEncoder()
    opt = torch.optim.Adagrad(model.parameters(), lr=0.05)
    order = torch.randperm(len(q))
    for step in range(steps):
        idx = order[(step * 64) % len(q):][:64]
        scores = model(q[idx], d[idx])
        loss = nn.functional.cross_entropy(scores, torch.arange(len(idx)))
        opt.zero_grad()
        loss.backward()
        opt.step()
        if step % 10 == 0:
            print("step", step, "loss", f"{loss.item():.4f}")


if __name__ == "__main__":
    ap = argparse.ArgumentParser()
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--steps", type=int, default=120)
    args = ap.parse_args()
    run(args.seed, args.steps)
