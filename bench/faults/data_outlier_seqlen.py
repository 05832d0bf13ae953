"""Fault: data-outlier (primary), unstable-op (secondary). The founding story: a CTR model
with a user-behaviour sequence feature. Most users have ~50 clicks; one crawler account
has 5000 clicks on the same few items. The "user interest" query is a *sum* of the
behaviour embeddings, and the attention softmax is written by hand without subtracting
the row max, so for that one user exp(score) overflows to inf and inf/inf is NaN.
The loss is fine for hundreds of steps and goes NaN the first time the batch holding
that user is drawn.

Mechanism: one extreme sequence length (5000 vs P99 ~ 70) into a hand-written softmax.
"""
import argparse

import numpy as np
import torch
from torch import nn
from torch.utils.data import DataLoader, Dataset

N_ITEMS, DIM = 2000, 16


class Clicks(Dataset):
    def __init__(self, n, seed):
        rng = np.random.default_rng(seed)
        self.seqs, self.target, self.label = [], [], []
        for _ in range(n):
            fav = int(rng.integers(0, 10))              # item category = id // 200
            L = max(1, int(rng.poisson(50)))
            own = rng.random(L) < 0.7
            seq = np.where(own, fav * 200 + rng.integers(0, 200, L), rng.integers(1, N_ITEMS, L))
            self.seqs.append(np.maximum(seq, 1))
            t = int(rng.integers(1, N_ITEMS))
            self.target.append(t)
            self.label.append(float(t // 200 == fav))   # clicks items of the favourite category
        bot = int(rng.integers(n))  # a crawler: 5000 clicks on the same handful of items
        self.seqs[bot] = rng.choice(rng.integers(1, N_ITEMS, 3), 5000)

    def __len__(self):
        return len(self.seqs)

    def __getitem__(self, i):
        return torch.as_tensor(self.seqs[i]), self.target[i], self.label[i]


def collate(batch):
    seqs, tgt, lab = zip(*batch)
    L = max(len(s) for s in seqs)
    out = torch.zeros(len(seqs), L, dtype=torch.long)  # 0 = padding
    for i, s in enumerate(seqs):
        out[i, : len(s)] = s
    return out, torch.tensor(tgt), torch.tensor(lab)


class InterestNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.emb = nn.Embedding(N_ITEMS, DIM, padding_idx=0)
        self.query = nn.Linear(DIM, DIM)
        self.head = nn.Sequential(nn.Linear(2 * DIM, 32), nn.ReLU(), nn.Linear(32, 1))

    def forward(self, seq, target):
        mask = (seq != 0).float()
        k = self.emb(seq)                                  # B, L, D
        interest = k.sum(1)                                # sum pooling: grows with length
        q = self.query(interest)                           # B, D
        scores = torch.einsum("bld,bd->bl", k, q) / DIM ** 0.5
        w = torch.exp(scores) * mask                       # no max subtraction
        w = w / w.sum(1, keepdim=True)
        pooled = torch.einsum("bl,bld->bd", w, k)
        return self.head(torch.cat([pooled, self.emb(target)], -1)).squeeze(-1)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--epochs", type=int, default=1)
    a = ap.parse_args()
    torch.manual_seed(a.seed)
    ds = Clicks(6000, a.seed)
    loader = DataLoader(ds, batch_size=32, shuffle=True, collate_fn=collate)
    model = InterestNet()
    opt = torch.optim.Adam(model.parameters(), lr=2e-3)
    crit = nn.BCEWithLogitsLoss()
    step, first_nan = 0, None
    for _ in range(a.epochs):
        for seq, tgt, lab in loader:
            loss = crit(model(seq, tgt), lab)
            opt.zero_grad()
            loss.backward()
            opt.step()
            if first_nan is None and not torch.isfinite(loss):
                first_nan = step
                print(f"step {step} loss {loss.item():.4f}  (longest sequence in batch: {seq.shape[1]})")
            elif step % 20 == 0:
                print(f"step {step} loss {loss.item():.4f}")
            step += 1
    print("final loss", loss.item())


if __name__ == "__main__":
    main()
