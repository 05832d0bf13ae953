"""Support-ticket topic classifier (4 topics) built as a light self-attention encoder: token embeddings (288-d, multiplied by sqrt(d_model) as in the original Transformer), one parameter-free self-attention layer (queries, keys and values are the embedded tokens, scores divided by sqrt(d) after the product), mean pooling and a linear head, trained with AdamW under CPU mixed precision (`torch.autocast(dtype=torch.float16)`). Autocast runs the score matmul in float16; the raw dot product of a scaled 288-d embedding with itself is around 288^2 = 83,000, beyond the float16 maximum of 65,504, so the scores come out as inf before the division, softmax turns the rows into NaN and the loss is NaN from the first batch.

Source: https://github.com/pytorch/pytorch/issues/40497 (Mixed precision causes NaN loss)
Report: "It seems that fp16 is not fit with attention or transformer, cause that attention need matmul
operations in blocks which alway cause some overflow problem, my problem is come from here, after a big
number matmul and with softmax followed, and I get bunches of inf and nan value, then my gradient collapse
at the first iteration." -- a reply: "you can achieve this by ... `with autocast(enabled=False): scores =
(torch.matmul(query.float(), key.float().transpose(-2, -1)) / math.sqrt(d_k))`". Reproduced with 2,000
synthetic tickets of 24 tokens (a 400-word vocabulary; each topic has its own keywords mixed into common
words), batches of 64, 2 epochs. The printed loss is the mean training loss of the last epoch, `acc` the
accuracy on 600 held-out tickets.

expect: fp16-overflow
symptom: nonfinite
batch: 23
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
