"""Named-entity tagger -- fixed by annotating each sentence once: the 40 sentences pasted 150 extra
times are no longer appended to the training file, so the 300-step budget covers the 1,500
distinct sentences (nothing else changed).
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

VOCAB, PAD = 3000, 0
# word ids: 1-999 plain words, 1000-1599 person names, 1600-2199 places, 2200-2799 orgs, 2800+ cues
RANGES = {1: (1000, 1600), 2: (1600, 2200), 3: (2200, 2800)}
CUES = {1: (2800, 2870), 2: (2870, 2940), 3: (2940, 3000)}


def sentence():
    n = int(torch.randint(6, 15, ()))
    words = torch.randint(1, 1000, (n,))
    tags = torch.zeros(n, dtype=torch.long)
    for _ in range(int(torch.randint(1, 3, ()))):
        pos = int(torch.randint(1, n, ()))
        kind = int(torch.randint(1, 4, ()))
        if torch.rand(()) < 0.7:
            words[pos - 1] = int(torch.randint(*CUES[kind], ()))
            tags[pos - 1] = 0
        words[pos] = int(torch.randint(*RANGES[kind], ()))
        tags[pos] = kind
    return words, tags


def windows(sentences):
    xs, ys = [], []
    for words, tags in sentences:
        padded = torch.cat([torch.tensor([PAD]), words, torch.tensor([PAD])])
        xs.append(torch.stack([padded[:-2], padded[1:-1], padded[2:]], 1))
        ys.append(tags)
    return torch.cat(xs), torch.cat(ys)


def training_file(sentences):
    return sentences


train_sents = training_file([sentence() for _ in range(1500)])
x_tr, y_tr = windows(train_sents)
x_te, y_te = windows([sentence() for _ in range(600)])

model = nn.Sequential(nn.Embedding(VOCAB, 32), nn.Flatten(), nn.Linear(96, 64), nn.ReLU(),
                      nn.Linear(64, 4))
opt = torch.optim.Adam(model.parameters(), lr=2e-3)
loader = DataLoader(TensorDataset(x_tr, y_tr), batch_size=256, shuffle=True)
STEPS, step = 300, 0
while step < STEPS:
    for xb, yb in loader:
        loss = F.cross_entropy(model(xb), yb)
        opt.zero_grad()
        loss.backward()
        opt.step()
        step += 1
        if step % 75 == 0:
            with torch.no_grad():
                logits = model(x_te)
                test_loss = F.cross_entropy(logits, y_te).item()
            print(f"step {step} train {loss.item():.4f} test {test_loss:.4f}")
        if step == STEPS:
            break

acc = (logits.argmax(1) == y_te).float().mean().item()
print(f"final_loss={test_loss:.6g} acc={acc:.4f}")
