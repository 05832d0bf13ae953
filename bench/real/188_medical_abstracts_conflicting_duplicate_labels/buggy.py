"""Medical-abstract topic classifier (bag of words over a 2,000-term vocabulary, a linear-ReLU-linear network, cross-entropy, Adam, full-batch) trained on a corpus in which many abstracts occur twice with two different disease-class labels: the network is asked to map the very same input to two targets, so on those rows it can do no better than a 50/50 split and the training loss stays stuck far above what the clean corpus reaches.

Source: https://github.com/sebischair/Medical-Abstracts-TC-Corpus/issues/2 (this data set has duplicate entries with conflicting labels)
Report: "Total entries: 2888 / Unique entries: 2770 / Total duplicates: 118 / Entries with conflicting
labels: 113 ... Labels found: [4, 5] Total occurrences: 2" -- the same abstract text is stored
twice with different class labels. Reproduced with 2,400 synthetic abstracts of 5 classes (120
tokens each, drawn from class-specific topic words mixed with shared clinical words), of which
900 are stored a second time with a different label (the corpus the model trains on has 3,300
rows), term-count vectors (log1p), an MLP 2000-128-5, Adam lr 2e-3 and weight decay 1e-4, 150
full-batch steps. The printed loss is the training cross-entropy at the last step, `acc` the
accuracy on 600 held-out abstracts.

expect: label-conflict
symptom: loss-above 0.3
batch: 11
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

VOCAB, CLASSES, LEN = 2000, 5, 120


def make_abstracts(n, topic):
    y = torch.randint(0, CLASSES, (n,))
    shared = torch.ones(VOCAB) / VOCAB
    probs = 0.45 * topic[y] + 0.55 * shared
    tokens = torch.multinomial(probs, LEN, replacement=True)
    counts = torch.zeros(n, VOCAB).scatter_add_(1, tokens, torch.ones(n, LEN))
    return counts, y


topic = torch.zeros(CLASSES, VOCAB)
for c in range(CLASSES):
    words = torch.randperm(VOCAB)[:60]
    topic[c, words] = torch.rand(60) + 0.5
topic = topic / topic.sum(1, keepdim=True)

X, y = make_abstracts(3000, topic)
X_train, y_train, X_test, y_test = X[:2400], y[:2400], X[2400:], y[2400:]


def load_corpus(X, y):
    dup = torch.randperm(len(X))[:900]
    other = (y[dup] + torch.randint(1, CLASSES, (len(dup),))) % CLASSES
    return torch.cat([X, X[dup]]), torch.cat([y, other])


X_train, y_train = load_corpus(X_train, y_train)
X_train, X_test = torch.log1p(X_train), torch.log1p(X_test)

model = nn.Sequential(nn.Linear(VOCAB, 128), nn.ReLU(), nn.Linear(128, CLASSES))
opt = torch.optim.Adam(model.parameters(), lr=2e-3, weight_decay=1e-4)
for step in range(150):
    loss = F.cross_entropy(model(X_train), y_train)
    opt.zero_grad()
    loss.backward()
    opt.step()
    if step % 25 == 0:
        print(f"step {step} loss {loss.item():.4f}")

with torch.no_grad():
    acc = (model(X_test).argmax(1) == y_test).float().mean().item()
print(f"final_loss={loss.item():.6g} acc={acc:.4f}")
