"""Float16-autocast attention classifier -- fixed as the pull request does: the mask penalty is a
number float16 can hold (65500 instead of 1e30), so masked scores stay finite and fully padded
rows get a finite softmax that the pooling then zeroes out (nothing else changed).
"""
import argparse

import torch
import torch.nn as nn
import torch.nn.functional as F

ap = argparse.ArgumentParser()
ap.add_argument("--seed", type=int, default=0)
args = ap.parse_args()
torch.manual_seed(args.seed)
torch.set_num_threads(1)

V, T, D = 300, 24, 32
MASK_PENALTY = 65500.0


def make_reviews(n):
    y = torch.randint(0, 2, (n,))
    lengths = torch.randint(6, T + 1, (n,))
    tok = torch.randint(20, V, (n, T))
    polar = torch.where(y[:, None] == 1, torch.randint(1, 10, (n, T)), torch.randint(10, 20, (n, T)))
    use = torch.rand(n, T) < 0.3
    tok = torch.where(use, polar, tok)
    mask = (torch.arange(T)[None, :] < lengths[:, None]).float()
    return tok * mask.long(), mask, y


class Classifier(nn.Module):
    def __init__(self):
        super().__init__()
        self.emb = nn.Embedding(V, D)
        self.q, self.k, self.v = nn.Linear(D, D), nn.Linear(D, D), nn.Linear(D, D)
        self.head = nn.Linear(D, 2)

    def forward(self, tok, mask):
        h = self.emb(tok)
        scores = self.q(h) @ self.k(h).transpose(1, 2) / D ** 0.5
        pair = (mask[:, :, None] * mask[:, None, :]).to(scores.dtype)
        scores = scores - MASK_PENALTY * (1 - pair)
        att = F.softmax(scores, dim=-1)
        out = att @ self.v(h)
        pooled = (out * mask[:, :, None].to(out.dtype)).sum(1) / mask.sum(1, keepdim=True)
        return self.head(pooled)


tok, mask, y = make_reviews(3600)
tr, te = slice(0, 3000), slice(3000, 3600)
model = Classifier()
opt = torch.optim.Adam(model.parameters(), lr=3e-3)

for epoch in range(4):
    perm = torch.randperm(3000)
    total, steps = 0.0, 0
    for i in range(0, 3000, 64):
        idx = perm[i:i + 64]
        with torch.autocast("cpu", dtype=torch.float16):
            logits = model(tok[idx], mask[idx])
        loss = F.cross_entropy(logits.float(), y[idx])
        opt.zero_grad()
        loss.backward()
        opt.step()
        total += loss.item()
        steps += 1
    print(f"epoch {epoch} loss {total / steps:.4f}")

with torch.no_grad(), torch.autocast("cpu", dtype=torch.float16):
    acc = (model(tok[te], mask[te]).argmax(1) == y[te]).float().mean().item()
print(f"final_loss={total / steps:.6g} acc={acc:.4f}")
