"""Email classifier from a classifier-service CSV -- fixed by cleaning the training data as the
maintainer suggests (one classification per phrase): the blanket "phishing" tag that every row carries
is dropped when a row also has its real class, so each email enters training once with its ham/spam
label. Nothing else changed.
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
        real = [c for c in classes if c != "phishing"]
        for c in real or classes:
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
