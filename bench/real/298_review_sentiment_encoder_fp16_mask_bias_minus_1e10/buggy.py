"""Product-review sentiment classifier: a one-block self-attention encoder over padded token batches, run under CPU autocast in float16 to mimic a mixed-precision setup. The attention mask is built the flax way -- a query-and-key padding mask, turned into an additive bias of 0 / -1e10 in the scores' own dtype -- but -1e10 does not exist in float16: it becomes -inf. Every padded query position has all its keys masked, its row of scores is entirely -inf, softmax returns NaN for that row, and the NaN reaches the pooled sentence vector (0 * NaN is still NaN in the masked mean) and the loss on the first step.

Source: https://github.com/google/flax/issues/982 (Attention in float16 produces NaNs when using mask)
Report: "Using attention + mask with jnp.float16 produces NaNs. ... Works correctly for jnp.float32 and
jnp.bfloat16. The problem might be when setting attention bias" (the bias uses -1e10 cast to the
compute dtype). Reproduced with 3,000 synthetic reviews (vocabulary of 300 tokens, a few dozen
polarity words, lengths 6-40 padded to 40), the encoder above under torch.autocast("cpu",
dtype=torch.float16), Adam lr 2e-3, 4 epochs of batches of 64. The printed loss is the cross-entropy
on 800 held-out reviews, `acc` the accuracy there.

expect: fp16-overflow
symptom: nonfinite
batch: 18
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
        bias = torch.where(pair, 0.0, -1e10).to(scores.dtype)
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
