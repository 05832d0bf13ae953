"""Product-review sentiment encoder under float16 autocast -- fixed by building the attention bias
from the most negative number the scores' dtype can hold (torch.finfo(dtype).min) instead of -1e10,
which overflows to -inf in float16; fully masked padding rows now get a finite, uniform softmax
(nothing else changed).
"""
import argparse
import math

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset

ap = argparse.ArgumentParser()
ap.add_argument("--seed", type=int, default=0)
args = ap.parse_args()
torch.manual_seed(args.seed)
torch.set_num_threads(1)

VOCAB, MAXLEN, PAD = 300, 40, 0
positive = torch.arange(10, 40)
negative = torch.arange(40, 70)


def reviews(n):
    lengths = torch.randint(6, MAXLEN + 1, (n,))
    tokens = torch.randint(70, VOCAB, (n, MAXLEN))
    label = torch.randint(0, 2, (n,))
    for i in range(n):
        k = int(torch.randint(1, 4, ()))
        pos = torch.randperm(int(lengths[i]))[:k]
        pool = positive if label[i] == 1 else negative
        tokens[i, pos] = pool[torch.randint(0, len(pool), (k,))]
        if torch.rand(()) < 0.5:
            other = negative if label[i] == 1 else positive
            tokens[i, torch.randint(0, int(lengths[i]), (1,))] = other[torch.randint(0, len(other), (1,))]
    tokens[torch.arange(MAXLEN)[None, :] >= lengths[:, None]] = PAD
    return tokens, label


class Encoder(nn.Module):
    def __init__(self, d=48):
        super().__init__()
        self.emb = nn.Embedding(VOCAB, d, padding_idx=PAD)
        self.pos = nn.Parameter(0.02 * torch.randn(MAXLEN, d))
        self.qkv = nn.Linear(d, 3 * d)
        self.out = nn.Linear(d, d)
        self.ff = nn.Sequential(nn.Linear(d, 2 * d), nn.GELU(), nn.Linear(2 * d, d))
        self.n1, self.n2 = nn.LayerNorm(d), nn.LayerNorm(d)
        self.head = nn.Linear(d, 2)

    def forward(self, tokens):
        keep = tokens != PAD
        h = self.emb(tokens) + self.pos
        q, k, v = self.qkv(self.n1(h)).chunk(3, dim=-1)
        scores = q @ k.transpose(1, 2) / math.sqrt(q.shape[-1])
        pair = keep[:, :, None] & keep[:, None, :]
        bias = torch.where(pair, 0.0, torch.finfo(scores.dtype).min).to(scores.dtype)
        h = h + self.out(torch.softmax(scores + bias, dim=-1) @ v)
        h = h + self.ff(self.n2(h))
        m = keep.unsqueeze(-1).to(h.dtype)
        pooled = (h * m).sum(1) / m.sum(1)
        return self.head(pooled)


Xtr, ytr = reviews(3000)
Xte, yte = reviews(800)
loader = DataLoader(TensorDataset(Xtr, ytr), batch_size=64, shuffle=True)
model = Encoder()
opt = torch.optim.Adam(model.parameters(), lr=2e-3)

for epoch in range(4):
    model.train()
    for tokens, y in loader:
        with torch.autocast("cpu", dtype=torch.float16):
            loss = F.cross_entropy(model(tokens), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
    model.eval()
    with torch.no_grad(), torch.autocast("cpu", dtype=torch.float16):
        logits = model(Xte).float()
    val = F.cross_entropy(logits, yte).item()
    acc = (logits.argmax(1) == yte).float().mean().item()
    print(f"epoch {epoch} train {loss.item():.4f} val {val:.4f} acc {acc:.4f}")

print(f"final_loss={val:.6g} acc={acc:.4f}")
