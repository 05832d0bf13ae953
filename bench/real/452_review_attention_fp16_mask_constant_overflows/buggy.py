"""Review-sentiment classifier with one self-attention layer over padded token sequences (vocabulary 200, lengths 6-24 padded to 24, 2 classes decided by sentiment-bearing tokens), trained under CPU autocast with float16. The attention mask is built Keras-style from the query and key padding masks and applied additively: `scores + (1 - mask) * NEG` with the mask cast to the scores' dtype and NEG = -1e9. In float16, -1e9 is beyond the largest representable magnitude (65504) and becomes -inf, so every masked score is -inf; the rows of padded query positions are masked everywhere, their softmax is -inf - (-inf) = NaN, the NaN hidden states leak into the masked mean pooling (NaN * 0 = NaN), and the loss is NaN from the first batch that contains padding.

Source: https://github.com/keras-team/keras/pull/17571 (Softmax fix in Mixed Precision)
Report: "we noticed learning issues when we trained a model with Mixed Precision coupled with MultiHeadAttention ... the method
_large_compatible_negative returns a value that is too negatively large when the data type is float16 (i.e., the mixed
precision is enabled), and it causes overflows when the adder variable is combined with the inputs. Therefore, our model was
unable to learn during the training procedure. Our fix consisted in moving this value away from the overflow edge". Reproduced
with an additive mask constant of -1e9 cast to float16 under autocast; the fix uses -1e4, which float16 represents. The printed
loss is the mean training cross-entropy of the last epoch, `acc` the held-out accuracy.

expect: fp16-overflow
symptom: nonfinite
batch: 28
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

VOCAB, MAX_LEN, DIM, NEG = 200, 24, 32, -1e9
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
