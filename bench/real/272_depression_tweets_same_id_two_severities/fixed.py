"""Tweet depression-severity classifier -- fixed by removing every tweet ID whose rows disagree on
the severity label before training, so each tweet has exactly one target. Nothing else changed.
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

VOCAB, LEN, LEVELS = 500, 24, 4
cue_words = torch.randperm(VOCAB - 1)[:LEVELS * 10].view(LEVELS, 10) + 1


def tweets(n):
    y = torch.randint(0, LEVELS, (n,))
    toks = torch.randint(1, VOCAB, (n, LEN))
    for i in range(n):
        k = int(torch.randint(2, 5, ()))
        toks[i, torch.randperm(LEN)[:k]] = cue_words[y[i], torch.randint(0, 10, (k,))]
    return toks, y


def annotation_dump():
    ids = torch.arange(3000)
    toks, y = tweets(3000)
    twice = torch.randperm(3000)[:1200]
    other = (y[twice] + torch.randint(1, LEVELS, (1200,))) % LEVELS
    return torch.cat([ids, ids[twice]]), torch.cat([toks, toks[twice]]), torch.cat([y, other])


ids, X, y = annotation_dump()
conflicting = torch.zeros(3000, dtype=torch.bool)
for i in torch.unique(ids):
    rows = ids == i
    conflicting[i] = len(torch.unique(y[rows])) > 1
keep = ~conflicting[ids]
ids, X, y = ids[keep], X[keep], y[keep]
X_test, y_test = tweets(1000)


class ConvText(nn.Module):
    def __init__(self):
        super().__init__()
        self.emb = nn.Embedding(VOCAB, 48)
        self.conv = nn.Conv1d(48, 64, 3, padding=1)
        self.out = nn.Linear(64, LEVELS)

    def forward(self, toks):
        h = F.relu(self.conv(self.emb(toks).transpose(1, 2)))
        return self.out(h.max(2).values)


model = ConvText()
opt = torch.optim.Adam(model.parameters(), lr=2e-3)
loader = DataLoader(TensorDataset(X, y), batch_size=64, shuffle=True)

for epoch in range(10):
    model.train()
    total = 0.0
    for xb, yb in loader:
        loss = F.cross_entropy(model(xb), yb)
        opt.zero_grad()
        loss.backward()
        opt.step()
        total += loss.item() * len(xb)
    model.eval()
    with torch.no_grad():
        logits = model(X_test)
        test_ce = F.cross_entropy(logits, y_test).item()
        acc = (logits.argmax(1) == y_test).float().mean().item()
    print(f"epoch {epoch} train ce {total / len(X):.4f} test ce {test_ce:.4f} acc {acc:.3f}")

print(f"final_loss={total / len(X):.6g} acc={acc:.4f}")
