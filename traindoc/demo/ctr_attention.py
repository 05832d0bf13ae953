"""The founding story, small: a CTR model whose new user-behaviour-sequence feature goes
through an attention block with a hand-written softmax (no max subtraction).

Histories are ~200 items long; one user's history (dataset index 5171) is 5 000 long.
The attention query is the sum-pooled history, so its scores grow with length: on the
batch that draws that user, exp() overflows to inf and inf/inf gives NaN.

Runs on a laptop CPU in seconds. Stops when the loss goes NaN, like many real scripts.
"""

import argparse
import math
import sys

import torch
from torch import nn
from torch.utils.data import DataLoader, Dataset

N_ITEMS, N_CATS, DIM = 1000, 10, 16
LONG_USER = 5171


class Histories(Dataset):
    """Synthetic click logs: a user's history of item ids, a candidate item, a click label."""

    def __init__(self, n=8000, seed=0):
        g = torch.Generator().manual_seed(seed)
        self.cat_of_item = torch.arange(N_ITEMS) % N_CATS
        lengths = (200 + 40 * torch.randn(n, generator=g)).clamp(50, 400).long()
        lengths[LONG_USER] = 5000
        self.user_cat = torch.randint(0, N_CATS, (n,), generator=g)
        self.seqs = []
        for i in range(n):
            L = int(lengths[i])
            own = self.user_cat[i] + N_CATS * torch.randint(0, N_ITEMS // N_CATS, (L,), generator=g)
            rand = torch.randint(0, N_ITEMS, (L,), generator=g)
            self.seqs.append(torch.where(torch.rand(L, generator=g) < 0.8, own, rand))
        self.label = torch.randint(0, 2, (n,), generator=g).float()
        other = (self.user_cat + torch.randint(1, N_CATS, (n,), generator=g)) % N_CATS
        cat = torch.where(self.label > 0, self.user_cat, other)
        self.target = cat + N_CATS * torch.randint(0, N_ITEMS // N_CATS, (n,), generator=g)

    def __len__(self):
        return len(self.seqs)

    def __getitem__(self, i):
        return self.seqs[i], self.target[i], self.label[i]


def collate(batch):
    seqs, targets, labels = zip(*batch)
    L = max(len(s) for s in seqs)
    hist = torch.zeros(len(seqs), L, dtype=torch.long)
    mask = torch.zeros(len(seqs), L)
    for i, s in enumerate(seqs):
        hist[i, : len(s)] = s
        mask[i, : len(s)] = 1.0
    return hist, mask, torch.stack(targets), torch.stack(labels)


class InterestAttention(nn.Module):
    """Attention of the history items against the user's (sum-pooled) interest."""

    def __init__(self, dim):
        super().__init__()
        self.q = nn.Linear(dim, dim)
        self.k = nn.Linear(dim, dim)

    def forward(self, h, mask):
        interest = (h * mask.unsqueeze(-1)).sum(1)  # grows with the history length
        scores = torch.einsum("bd,bld->bl", self.q(interest), self.k(h)) / math.sqrt(h.shape[-1])
        w = torch.exp(scores) * mask  # hand-written softmax: no max subtraction
        w = w / w.sum(1, keepdim=True)
        return torch.einsum("bl,bld->bd", w, h)


class CTRModel(nn.Module):
    def __init__(self):
        super().__init__()
        self.items = nn.Embedding(N_ITEMS, DIM)
        self.attn = InterestAttention(DIM)
        self.mlp = nn.Sequential(nn.Linear(2 * DIM, 32), nn.ReLU(), nn.Linear(32, 1))

    def forward(self, hist, mask, target):
        user = self.attn(self.items(hist), mask)
        return self.mlp(torch.cat([user, self.items(target)], -1)).squeeze(-1)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--epochs", type=int, default=1)
    ap.add_argument("--seed", type=int, default=0)
    a = ap.parse_args()
    torch.manual_seed(a.seed)
    data = Histories(seed=a.seed)
    loader = DataLoader(data, batch_size=32, shuffle=True, collate_fn=collate,
                        generator=torch.Generator().manual_seed(a.seed))
    model = CTRModel()
    opt = torch.optim.Adam(model.parameters(), lr=3e-3)
    loss_fn = nn.BCEWithLogitsLoss()
    step = 0
    for epoch in range(a.epochs):
        for hist, mask, target, label in loader:
            loss = loss_fn(model(hist, mask, target), label)
            opt.zero_grad()
            loss.backward()
            opt.step()
            if not math.isfinite(loss.item()):
                print(f"step {step}: loss is {loss.item()}, stopping")
                sys.exit(1)
            if step % 50 == 0:
                print(f"step {step}: loss {loss.item():.4f}")
            step += 1
    print(f"finished {step} steps")


if __name__ == "__main__":
    main()
