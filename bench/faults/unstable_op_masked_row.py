"""Fault: unstable-op. Attention pooling over variable-length sessions with
masked_fill(-inf) on padding. Some sessions in the log are empty (length 0): their
whole score row is -inf, softmax of an all -inf row is 0/0 = NaN, and the NaN spreads
to the loss and, through the update, to every weight.

Mechanism: a fully masked attention row (-inf minus -inf inside softmax).
"""
import argparse

import torch
from torch import nn
from torch.utils.data import DataLoader, Dataset


class Sessions(Dataset):
    def __init__(self, seed, n=5000, max_len=30, vocab=500):
        g = torch.Generator().manual_seed(seed)
        self.lengths = torch.randint(1, max_len + 1, (n,), generator=g)
        self.lengths[torch.randperm(n, generator=g)[:3]] = 0   # sessions with no events
        self.items = torch.randint(1, vocab, (n, max_len), generator=g)
        self.y = (self.items[:, 0] % 2).float()

    def __len__(self):
        return len(self.y)

    def __getitem__(self, i):
        L = int(self.lengths[i])
        seq = self.items[i].clone()
        seq[L:] = 0
        return seq, self.y[i]


class AttnPool(nn.Module):
    def __init__(self, vocab=500, d=32):
        super().__init__()
        self.emb = nn.Embedding(vocab, d, padding_idx=0)
        self.score = nn.Linear(d, 1)
        self.cls = nn.Linear(d, 1)

    def forward(self, seq):
        h = self.emb(seq)
        s = self.score(h).squeeze(-1).masked_fill(seq == 0, float("-inf"))
        w = torch.softmax(s, dim=-1)
        return self.cls((w.unsqueeze(-1) * h).sum(1)).squeeze(-1)


ap = argparse.ArgumentParser()
ap.add_argument("--seed", type=int, default=0)
ap.add_argument("--epochs", type=int, default=2)
args = ap.parse_args()
torch.manual_seed(args.seed)
model = AttnPool()
opt = torch.optim.Adam(model.parameters(), lr=2e-3)
step = 0
for ep in range(args.epochs):
    for seq, y in DataLoader(Sessions(args.seed), batch_size=64, shuffle=True):
        loss = nn.functional.binary_cross_entropy_with_logits(model(seq), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
        if step % 20 == 0:
            print(f"step {step} loss {loss.item():.4f}")
        step += 1
