"""Sentence-pair entailment classifier on frozen large-norm word vectors: the same program with the loss computed from log_softmax of the logits (log-sum-exp form) instead of log(softmax(logits)), so an exact-zero probability can no longer produce log(0) = -inf and the loss stays finite.
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

VOCAB, DIM, LEN = 500, 50, 8
glove = torch.randn(VOCAB, DIM)
antonym = torch.randperm(VOCAB)


def make_pairs(n):
    premise = torch.randint(0, VOCAB, (n, LEN))
    label = torch.randint(0, 3, (n,))  # 0 entail, 1 contradict, 2 neutral
    hyp = premise[:, torch.randperm(LEN)].clone()
    k = torch.randint(0, LEN, (n,))
    rows = torch.arange(n)
    contra = label == 1
    hyp[rows[contra], k[contra]] = antonym[hyp[rows[contra], k[contra]]]
    neutral = label == 2
    hyp[neutral] = torch.randint(0, VOCAB, (int(neutral.sum()), LEN))
    hyp[neutral, :3] = premise[neutral, :3]
    return premise, hyp, label


class Entailment(nn.Module):
    def __init__(self):
        super().__init__()
        self.emb = nn.Embedding.from_pretrained(glove, freeze=True)
        self.proj = nn.Linear(DIM, 64)
        self.compare = nn.Sequential(nn.Linear(128, 64), nn.ReLU())
        self.out = nn.Sequential(nn.Linear(128, 64), nn.ReLU(), nn.Linear(64, 3))

    def forward(self, p, h):
        a, b = self.proj(self.emb(p)), self.proj(self.emb(h))
        att = torch.softmax(a @ b.transpose(1, 2), dim=-1)
        a_cmp = self.compare(torch.cat([a, att @ b], -1)).sum(1)
        b_cmp = self.compare(torch.cat([b, att.transpose(1, 2) @ a], -1)).sum(1)
        return self.out(torch.cat([a_cmp, b_cmp], -1))


def nll(logits, label):
    return -F.log_softmax(logits, dim=-1).gather(1, label[:, None]).mean()


p_tr, h_tr, y_tr = make_pairs(3000)
p_te, h_te, y_te = make_pairs(600)
model = Entailment()
opt = torch.optim.Adam(model.parameters(), lr=3e-3)
for epoch in range(8):
    perm = torch.randperm(len(y_tr))
    for i in range(0, len(perm), 50):
        idx = perm[i:i + 50]
        loss = nll(model(p_tr[idx], h_tr[idx]), y_tr[idx])
        opt.zero_grad()
        loss.backward()
        opt.step()
    print(f"epoch {epoch} loss {loss.item():.4f}")

with torch.no_grad():
    logits = model(p_te, h_te)
    test_loss = nll(logits, y_te).item()
    acc = (logits.argmax(1) == y_te).float().mean().item()
print(f"final_loss={test_loss:.6g} acc={acc:.4f}")
