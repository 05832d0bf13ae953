"""NLI head on a frozen sentence encoder -- fixed by building the optimiser from the loss module's parameters (`train_loss.parameters()`, which include the classifier; the frozen encoder parameters in it get no gradient and stay unchanged), so the classifier is actually trained (nothing else changed).
"""
import argparse

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset

ap = argparse.ArgumentParser()
ap.add_argument("--seed", type=int, default=0)
args = ap.parse_args()
torch.manual_seed(args.seed)
torch.set_num_threads(1)

TOPICS, WORDS, D = 20, 10, 32
topic_vec = torch.randn(TOPICS, D)
word_vec = torch.cat([topic_vec.repeat_interleave(WORDS, 0), -topic_vec.repeat_interleave(WORDS, 0)])
word_vec = word_vec + 0.4 * torch.randn_like(word_vec)


def sentences(topics, negated):
    base = topics * WORDS + negated * TOPICS * WORDS
    return base.unsqueeze(1) + torch.randint(0, WORDS, (len(topics), 8))


def pairs(n):
    label = torch.randint(0, 3, (n,))
    t1 = torch.randint(0, TOPICS, (n,))
    other = (t1 + torch.randint(1, TOPICS, (n,))) % TOPICS
    t2 = torch.where(label == 1, other, t1)
    a = sentences(t1, torch.zeros(n, dtype=torch.long))
    b = sentences(t2, (label == 2).long())
    return a, b, label


class Encoder(nn.Module):
    def __init__(self):
        super().__init__()
        self.embed = nn.Embedding.from_pretrained(word_vec, freeze=True)
        self.proj = nn.Linear(D, D)

    def forward(self, tok):
        return torch.tanh(self.proj(self.embed(tok).mean(1)))


class SoftmaxLoss(nn.Module):
    def __init__(self, model, dim, num_labels):
        super().__init__()
        self.model = model
        self.classifier = nn.Linear(3 * dim, num_labels)

    def logits(self, a, b):
        u, v = self.model(a), self.model(b)
        return self.classifier(torch.cat([u, v, (u - v).abs()], 1))

    def forward(self, a, b, label):
        return F.cross_entropy(self.logits(a, b), label)


model = Encoder()
for p in model.parameters():
    p.requires_grad_(False)
train_loss = SoftmaxLoss(model, D, 3)

A, B, Y = pairs(6000)
A_test, B_test, Y_test = pairs(1500)
loader = DataLoader(TensorDataset(A, B, Y), batch_size=64, shuffle=True)
opt = torch.optim.AdamW(train_loss.parameters(), lr=5e-3)

for epoch in range(5):
    total = 0.0
    for a, b, y in loader:
        loss = train_loss(a, b, y)
        opt.zero_grad()
        loss.backward()
        opt.step()
        total += loss.item() * len(y)
    print(f"epoch {epoch}: train loss {total / len(Y):.4f}")

with torch.no_grad():
    acc = (train_loss.logits(A_test, B_test).argmax(1) == Y_test).float().mean().item()
print(f"final_loss={total / len(Y):.6g} acc={acc:.4f}")
