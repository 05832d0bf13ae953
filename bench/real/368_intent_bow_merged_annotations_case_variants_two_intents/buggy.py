"""Chatbot intent classifier: utterances are lower-cased and tokenised, embedded with an EmbeddingBag (mean of 32-d word vectors) and classified into 10 intents by a linear layer on top of a 64-unit ReLU layer; cross-entropy, Adam lr 5e-3, DataLoader batches of 64, 12 epochs. The training set merges two annotation passes. In the second pass a third of the utterances were re-entered with different capitalisation and filed under a neighbouring intent, so after lower-casing the same token sequence appears under two intents. For those inputs no prediction can be right for both copies: the network settles on about 50/50 for them, the training loss cannot fall below the floor they set, and the intents involved lose accuracy on clean test utterances.

Source: https://github.com/wit-ai/wit/issues/1891 (Duplicate utterances (enhancement ))
Report: "Imagine that you have 2 intents A and B, and you have utterances like "Hello World" in both intents A
and B ... The capitalization of one letter is the difference and they are assigned to a different intent."
-- the maintainers: "For any utterance, there is only one correct outcome ... Annotating similar utterances
to different intents would just confuse the model." Reproduced with 3,000 synthetic utterances (10 intents,
each with its own keywords mixed into shared filler words), of which 1,000 are repeated in the second pass
with changed capitalisation and the next intent's label, and the model above. The printed loss is the mean
training cross-entropy of the last epoch, `acc` the accuracy on 1,000 clean test utterances.

expect: label-conflict
symptom: loss-above 0.3
batch: 22
"""
import argparse

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader

ap = argparse.ArgumentParser()
ap.add_argument("--seed", type=int, default=0)
args = ap.parse_args()
torch.manual_seed(args.seed)
torch.set_num_threads(1)

INTENTS, KEYWORDS_PER_INTENT, FILLER, LENGTH = 10, 6, 60, 8
VOCAB = INTENTS * KEYWORDS_PER_INTENT + FILLER
words = [f"w{i}" for i in range(VOCAB)]


def make_utterances(n):
    y = torch.randint(0, INTENTS, (n,))
    key = y[:, None] * KEYWORDS_PER_INTENT + torch.randint(0, KEYWORDS_PER_INTENT, (n, LENGTH))
    filler = INTENTS * KEYWORDS_PER_INTENT + torch.randint(0, FILLER, (n, LENGTH))
    ids = torch.where(torch.rand(n, LENGTH) < 0.3, key, filler)
    return [" ".join(words[i] for i in row) for row in ids.tolist()], y.tolist()


def tokenize(text):
    return torch.tensor([int(tok[1:]) for tok in text.lower().split()])


first_pass_text, first_pass_y = make_utterances(3000)
second_pass = [(t.upper(), (y + 1) % INTENTS) for t, y in zip(first_pass_text[:1000], first_pass_y[:1000])]
annotations = list(zip(first_pass_text, first_pass_y)) + second_pass


def merge(records):
    return records


train = [(tokenize(t), y) for t, y in merge(annotations)]
test_text, test_y = make_utterances(1000)


def collate(batch):
    return torch.stack([ids for ids, _ in batch]), torch.tensor([y for _, y in batch])


loader = DataLoader(train, batch_size=64, shuffle=True, collate_fn=collate)
model = nn.ModuleDict({"bag": nn.EmbeddingBag(VOCAB, 32), "mlp": nn.Sequential(nn.Linear(32, 64), nn.ReLU(),
                                                                               nn.Linear(64, INTENTS))})
opt = torch.optim.Adam(model.parameters(), lr=5e-3)

for epoch in range(12):
    total, n = 0.0, 0
    for ids, y in loader:
        loss = F.cross_entropy(model["mlp"](model["bag"](ids)), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
        total, n = total + loss.item() * len(y), n + len(y)
    print(f"epoch {epoch} loss {total / n:.4f}")

with torch.no_grad():
    logits = model["mlp"](model["bag"](torch.stack([tokenize(t) for t in test_text])))
    acc = (logits.argmax(1) == torch.tensor(test_y)).float().mean().item()
print(f"final_loss={total / n:.6g} acc={acc:.4f}")
