"""Place-name intent classifier -- fixed along the maintainer's line that a document should match
only one intent: names that the merged gazetteers list under more than one intent are dropped from
the training documents, so no identical input carries two labels (nothing else changed).
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
intents_of = {}
for name, r in documents:
    intents_of.setdefault(name, set()).add(r)
documents = [(name, r) for name, r in documents if len(intents_of[name]) == 1]

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
