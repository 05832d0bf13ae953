"""Place-name intent classifier for a chatbot (hashed character-trigram bag of 512 buckets, a
one-hidden-layer MLP, minibatch Adam through a DataLoader) that routes a city name to one of 4
regional intents. The training documents are built by adding every name of every regional
gazetteer as a document of that region's intent, and the gazetteers share many names (the same
town name exists in several regions), so hundreds of identical documents are labelled with two
different intents. No model can put both labels on the same input: the training loss stalls at
the entropy of the conflicting rows and the classifier's scores for those names are arbitrary.

Source: https://github.com/axa-group/nlp.js/issues/400 (Question: How to detect multi intention)
Report: "manager.addDocument('en', 'Sherbrooke', 'City_1'); manager.addDocument('en',
'Sherbrooke', 'City_2'); ... So I'm training the bot with the same sentence but different
classification. ... why does the City_2 is with a score of 1 and City_1 with a score of 0? Should
it not be 0.5 each?" -- maintainer: "It's intended to match with only one intent". Reproduced with
4 synthetic gazetteers of 500 names each (syllables drawn from region-specific inventories);
each region's list also carries 40% of its names from a neighbouring region's list, so 800 names
appear as two documents with two intents. MLP 512-64-4, Adam lr 3e-3, batch 64, 12 epochs. The
printed loss is the mean training cross-entropy of the last epoch, `acc` the accuracy on 400
held-out unambiguous names.

expect: label-conflict
symptom: loss-above 0.25
batch: 14
"""
import argparse
import zlib

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset

ap = argparse.ArgumentParser()
ap.add_argument("--seed", type=int, default=0)
args = ap.parse_args()
torch.manual_seed(args.seed)
torch.set_num_threads(1)

REGIONS, BUCKETS = 4, 512
letters = "abcdefghijklmnopqrstuvwxyz"
inventories = [["".join(letters[int(i)] for i in torch.randint(0, 26, (int(torch.randint(2, 4, ())),)))
                for _ in range(12)] for _ in range(REGIONS)]


def make_name(region):
    k = int(torch.randint(2, 4, ()))
    return "".join(inventories[region][int(i)] for i in torch.randint(0, 12, (k,)))


def featurise(name):
    v = torch.zeros(BUCKETS)
    padded = f"^{name}$"
    for i in range(len(padded) - 2):
        v[zlib.crc32(padded[i:i + 3].encode()) % BUCKETS] += 1.0
    return v


gazetteers = [[make_name(r) for _ in range(500)] for r in range(REGIONS)]
shared = [gazetteers[(r + 1) % REGIONS][:200] for r in range(REGIONS)]
documents = []
for r in range(REGIONS):
    for name in gazetteers[r] + shared[r]:
        documents.append((name, r))

train_x = torch.stack([featurise(n) for n, _ in documents])
train_y = torch.tensor([r for _, r in documents])
test_y = torch.arange(400) % REGIONS
test_x = torch.stack([featurise(make_name(int(r))) for r in test_y])

model = nn.Sequential(nn.Linear(BUCKETS, 64), nn.ReLU(), nn.Linear(64, REGIONS))
opt = torch.optim.Adam(model.parameters(), lr=3e-3)
loader = DataLoader(TensorDataset(train_x, train_y), batch_size=64, shuffle=True)

for epoch in range(12):
    total = 0.0
    for xb, yb in loader:
        loss = F.cross_entropy(model(xb), yb)
        opt.zero_grad()
        loss.backward()
        opt.step()
        total += loss.item() * len(yb)
    train_loss = total / len(train_y)
    print(f"epoch {epoch} loss {train_loss:.4f}")

with torch.no_grad():
    acc = (model(test_x).argmax(1) == test_y).float().mean().item()
print(f"final_loss={train_loss:.6g} acc={acc:.4f}")
