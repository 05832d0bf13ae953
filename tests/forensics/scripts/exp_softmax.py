"""Mechanism (a): exp overflow in a hand-written softmax. Histories are ~40 items long; dataset
index 77 holds 2 000. The attention query is the sum-pooled history, so its scores grow
with the length and exp() overflows on the batch that draws index 77."""
import math
import sys

import torch
from torch import nn
from torch.utils.data import DataLoader, Dataset

BAD = 77


class Histories(Dataset):
    def __init__(self, n=320):
        g = torch.Generator().manual_seed(0)
        self.lengths = (40 + 8 * torch.randn(n, generator=g)).clamp(10, 80).long()
        self.lengths[BAD] = 2000
        self.seqs = [torch.randint(1, 200, (int(L),), generator=g) for L in self.lengths]
        self.y = torch.randint(0, 2, (n,), generator=g).float()

    def __len__(self):
        return len(self.seqs)

    def __getitem__(self, i):
        return self.seqs[i], self.y[i]


def collate(items):
    seqs, ys = zip(*items)
    L = max(len(s) for s in seqs)
    x = torch.zeros(len(seqs), L, dtype=torch.long)
    for i, s in enumerate(seqs):
        x[i, : len(s)] = s
    return x, torch.stack(ys)


class Attention(nn.Module):
    def __init__(self, d):
        super().__init__()
        self.q, self.k = nn.Linear(d, d), nn.Linear(d, d)

    def forward(self, h, mask):
        user = (h * mask[..., None]).sum(1)
        scores = (self.k(h) @ self.q(user)[..., None]).squeeze(-1) / math.sqrt(h.shape[-1])
        w = torch.exp(scores) * mask  # hand-written softmax, no max subtracted
        w = w / w.sum(1, keepdim=True)
        return (w[..., None] * h).sum(1)


class Encoder(nn.Module):
    def __init__(self, d):
        super().__init__()
        self.attn = Attention(d)

    def forward(self, h, mask):
        return self.attn(h, mask)


class Model(nn.Module):
    def __init__(self, d=16):
        super().__init__()
        self.embed = nn.Embedding(200, d)
        self.encoder = Encoder(d)
        self.head = nn.Linear(d, 1)

    def forward(self, x):
        mask = (x != 0).float()
        return self.head(self.encoder(self.embed(x), mask)).squeeze(-1)


def main():
    torch.manual_seed(0)
    loader = DataLoader(Histories(), batch_size=16, shuffle=True, collate_fn=collate,
                        generator=torch.Generator().manual_seed(0))
    model = Model()
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    for step, (x, y) in enumerate(loader):
        loss = nn.functional.binary_cross_entropy_with_logits(model(x), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
        if not math.isfinite(loss.item()):
            print(f"step {step}: loss {loss.item()}")
            sys.exit(1)


if __name__ == "__main__":
    main()
