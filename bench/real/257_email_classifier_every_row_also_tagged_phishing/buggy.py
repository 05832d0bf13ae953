"""Email classifier trained from a classifier-service style CSV (text, then one or more class columns;
bag-of-words EmbeddingBag model with a linear head, Adam, DataLoader). The loader follows the
multi-class CSV convention and turns every class column of a row into its own (text, class) training
example. In this export every row carries the class "phishing" in its first class column and its real
class ("ham" or "spam") in the second, so each email enters training twice with two different labels.
With identical inputs under two targets the softmax can do no better than 50/50 between "phishing"
and the real class: the training loss is stuck near ln 2 and the predictions are a coin flip between
the constant tag and the real class.

Source: https://github.com/IBM/nlc-email-phishing/issues/26 (Question on the training data)
Report: "All the sentences of the training data are qualified with "phishing" (the 17834 lines) and
have an additional qualifier . like "ham" or "spam". What does it mean to qualify everything sample as
phishing ?" -- maintainer: "Hmm, that might just be an error in the training data ... You can assign
multiple classes to a certain phrase or you can keep 1 classification per phrase." Reproduced with
3,000 synthetic emails (token ids from a ham or a spam topic distribution over a 600-word vocabulary,
20-60 tokens), each CSV row = (tokens, "phishing", real class). EmbeddingBag(600, 32, mean) + linear
head over the 3 classes, Adam lr 1e-2, batch 64, 6 epochs. The printed loss is the final training
cross-entropy, `acc` the ham/spam accuracy on 1,000 held-out emails.

expect: label-conflict
symptom: final-loss-ratio 3
batch: 15
"""
import argparse

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, Dataset

ap = argparse.ArgumentParser()
ap.add_argument("--seed", type=int, default=0)
args = ap.parse_args()
torch.manual_seed(args.seed)
torch.set_num_threads(1)

VOCAB = 600
CLASSES = ["phishing", "ham", "spam"]
common = torch.rand(VOCAB) ** 4
topic = {"ham": common + 2 * (torch.rand(VOCAB) < 0.05) * torch.rand(VOCAB),
         "spam": common + 2 * (torch.rand(VOCAB) < 0.05) * torch.rand(VOCAB)}


def email_rows(n):
    rows = []
    for _ in range(n):
        real = "spam" if torch.rand(1) < 0.4 else "ham"
        length = int(torch.randint(20, 61, (1,)))
        tokens = torch.multinomial(topic[real], length, replacement=True)
        rows.append((tokens, "phishing", real))
    return rows


def examples_from_rows(rows):
    out = []
    for text, *classes in rows:
        for c in classes:
            out.append((text, CLASSES.index(c)))
    return out


class Emails(Dataset):
    def __init__(self, examples):
        self.examples = examples

    def __len__(self):
        return len(self.examples)

    def __getitem__(self, i):
        return self.examples[i]


def collate(batch):
    texts, labels = zip(*batch)
    offsets = torch.tensor([0] + [len(t) for t in texts[:-1]]).cumsum(0)
    return torch.cat(texts), offsets, torch.tensor(labels)


class BagClassifier(nn.Module):
    def __init__(self):
        super().__init__()
        self.bag = nn.EmbeddingBag(VOCAB, 32, mode="mean")
        self.head = nn.Linear(32, len(CLASSES))

    def forward(self, tokens, offsets):
        return self.head(self.bag(tokens, offsets))


train_rows, test_rows = email_rows(3000), email_rows(1000)
train_set = Emails(examples_from_rows(train_rows))
loader = DataLoader(train_set, batch_size=64, shuffle=True, collate_fn=collate)
model = BagClassifier()
opt = torch.optim.Adam(model.parameters(), lr=1e-2)
for epoch in range(6):
    total, count = 0.0, 0
    for tokens, offsets, labels in loader:
        loss = F.cross_entropy(model(tokens, offsets), labels)
        opt.zero_grad()
        loss.backward()
        opt.step()
        total += loss.item() * len(labels)
        count += len(labels)
    print(f"epoch {epoch} train loss {total / count:.4f}")

with torch.no_grad():
    tokens, offsets, labels = collate(train_set.examples)
    train_loss = F.cross_entropy(model(tokens, offsets), labels).item()
    t_tokens, t_offsets, _ = collate([(r[0], 0) for r in test_rows])
    truth = torch.tensor([CLASSES.index(r[2]) for r in test_rows])
    acc = (model(t_tokens, t_offsets).argmax(1) == truth).float().mean().item()
print(f"final_loss={train_loss:.6g} acc={acc:.4f}")
