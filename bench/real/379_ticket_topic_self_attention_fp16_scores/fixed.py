"""Support-ticket topic classifier -- fixed as suggested in the thread: the attention scores are computed in float32 with autocast disabled for that block (`with torch.autocast("cpu", enabled=False)` and `.float()` on queries, keys and values), so the large raw dot products no longer overflow; the rest of the model still runs under float16 autocast (nothing else changed).
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

VOCAB, D, L, TOPICS = 400, 288, 24, 4
keywords = torch.arange(40).view(TOPICS, 10)


def tickets(n):
    y = torch.randint(0, TOPICS, (n,))
    tok = torch.randint(40, VOCAB, (n, L))
    kw = torch.rand(n, L) < 0.25
    tok[kw] = keywords[y.unsqueeze(1).expand(n, L)[kw], torch.randint(0, 10, (int(kw.sum()),))]
    return tok, y


X_train, y_train = tickets(2000)
X_test, y_test = tickets(600)


class TicketEncoder(nn.Module):
    def __init__(self):
        super().__init__()
        self.embed = nn.Embedding(VOCAB, D)
        self.head = nn.Linear(D, TOPICS)

    def attention(self, q, k, v):
        with torch.autocast("cpu", enabled=False):
            q, k, v = q.float(), k.float(), v.float()
            scores = torch.matmul(q, k.transpose(-2, -1)) / math.sqrt(D)
            return torch.matmul(scores.softmax(-1), v)

    def forward(self, tok):
        x = self.embed(tok) * math.sqrt(D)
        h = x + self.attention(x, x, x)
        return self.head(h.mean(1) / math.sqrt(D))


model = TicketEncoder()
opt = torch.optim.AdamW(model.parameters(), lr=2e-3)

for epoch in range(2):
    perm = torch.randperm(len(X_train))
    total = 0.0
    for i in range(0, len(X_train), 64):
        idx = perm[i:i + 64]
        with torch.autocast("cpu", dtype=torch.float16):
            logits = model(X_train[idx])
        loss = F.cross_entropy(logits.float(), y_train[idx])
        opt.zero_grad()
        loss.backward()
        opt.step()
        total += loss.item() * len(idx)
    print(f"epoch {epoch}: train loss {total / len(X_train):.4f}")

with torch.no_grad(), torch.autocast("cpu", dtype=torch.float16):
    acc = (model(X_test).argmax(1) == y_test).float().mean().item()
print(f"final_loss={total / len(X_train):.6g} acc={acc:.4f}")
