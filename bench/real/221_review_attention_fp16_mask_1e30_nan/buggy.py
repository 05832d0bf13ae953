"""Review sentiment classifier with one self-attention layer over padded token sequences, trained
under CPU autocast with float16. Padding is masked by subtracting `1e30 * (1 - mask)` from the
attention scores, where the pairwise mask (query valid and key valid) is cast to the scores'
dtype. In float16 the constant 1e30 cannot be represented: it becomes inf, so every masked score is
-inf, the score rows of padded query positions are all -inf and their softmax is NaN. The masked
mean pooling multiplies those rows by 0, but 0 * NaN is NaN, so the loss is NaN from the first
batch.

Source: https://github.com/huggingface/transformers/pull/1154 (fix: hard coding for max number)
Report: "fp16 max number is 65504, the original 1e30 will cause Nan in fp16" (the attention mask
penalty in the XLNet code; the maintainer answered "Yes, thanks" and merged it). Reproduced with
3,000 synthetic reviews of 6-24 tokens padded to 24 (vocabulary 300, sentiment carried by two
groups of polar words), embedding 32, one attention layer, masked mean pooling, a linear head, all
under `torch.autocast("cpu", dtype=torch.float16)`, Adam lr 3e-3, batches of 64, 4 epochs. The
printed loss is the mean training loss of the last epoch, `acc` the accuracy on 600 held-out
reviews.

expect: fp16-overflow
symptom: nonfinite
batch: 13
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
MASK_PENALTY = 1e30


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
