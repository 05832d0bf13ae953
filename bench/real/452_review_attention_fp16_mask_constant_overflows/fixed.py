"""Review-sentiment classifier with one self-attention layer trained under float16 autocast: the same program with the additive attention-mask constant -1e4 instead of -1e9, so masked scores stay finite in float16 and fully masked (padded) query rows get a harmless uniform softmax instead of NaN.
"""
import argparse
import math

import torch
import torch.nn as nn
import torch.nn.functional as F

ap = argparse.ArgumentParser()
ap.add_argument("--seed", type=int, default=0)
args = ap.parse_args()
torch.manual_seed(args.seed)
torch.set_num_threads(1)

VOCAB, MAX_LEN, DIM, NEG = 200, 24, 32, -1e4
POS_WORDS, NEG_WORDS = torch.arange(1, 11), torch.arange(11, 21)


def reviews(n):
    lengths = torch.randint(6, MAX_LEN + 1, (n,))
    tokens = torch.randint(21, VOCAB, (n, MAX_LEN))
    y = torch.randint(0, 2, (n,))
    for i in range(n):
        words = POS_WORDS if y[i] == 1 else NEG_WORDS
        k = torch.randint(1, 4, (1,)).item()
        pos = torch.randperm(lengths[i].item())[:k]
        tokens[i, pos] = words[torch.randint(0, 10, (k,))]
    valid = torch.arange(MAX_LEN)[None, :] < lengths[:, None]
    tokens[~valid] = 0
    return tokens, valid, y


class AttentionClassifier(nn.Module):
    def __init__(self):
        super().__init__()
        self.emb = nn.Embedding(VOCAB, DIM, padding_idx=0)
        self.pos = nn.Parameter(0.02 * torch.randn(MAX_LEN, DIM))
        self.qkv = nn.Linear(DIM, 3 * DIM)
        self.out = nn.Linear(DIM, DIM)
        self.head = nn.Linear(DIM, 2)

    def forward(self, tokens, valid):
        h = self.emb(tokens) + self.pos
        q, k, v = self.qkv(h).chunk(3, dim=-1)
        scores = q @ k.transpose(1, 2) / math.sqrt(DIM)
        mask = valid[:, :, None] & valid[:, None, :]
        scores = scores + (1.0 - mask.to(scores.dtype)) * NEG
        h = h + self.out(torch.softmax(scores, dim=-1) @ v)
        w = valid.to(h.dtype)[..., None]
        pooled = (h * w).sum(1) / w.sum(1)
        return self.head(pooled)


X_train, m_train, y_train = reviews(2000)
X_test, m_test, y_test = reviews(600)
model = AttentionClassifier()
opt = torch.optim.Adam(model.parameters(), lr=3e-3)

for epoch in range(5):
    perm = torch.randperm(len(X_train))
    total, steps = 0.0, 0
    for start in range(0, len(perm), 50):
        idx = perm[start:start + 50]
        with torch.autocast("cpu", dtype=torch.float16):
            logits = model(X_train[idx], m_train[idx])
        loss = F.cross_entropy(logits.float(), y_train[idx])
        opt.zero_grad()
        loss.backward()
        opt.step()
        total += loss.item()
        steps += 1
    with torch.no_grad(), torch.autocast("cpu", dtype=torch.float16):
        acc = (model(X_test, m_test).float().argmax(1) == y_test).float().mean().item()
    print(f"epoch {epoch} loss {total / steps:.4f} acc {acc:.3f}")

print(f"final_loss={total / steps:.6g} acc={acc:.4f}")
