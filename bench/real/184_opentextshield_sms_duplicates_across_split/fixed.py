"""SMS ham / spam / phishing classifier -- fixed as in PR #195: rows are de-duplicated (exact and after
normalising case and whitespace) before the train / test split (nothing else changed).
"""
import argparse
import zlib

import torch
import torch.nn as nn
import torch.nn.functional as F

ap = argparse.ArgumentParser()
ap.add_argument("--seed", type=int, default=0)
args = ap.parse_args()
torch.manual_seed(args.seed)
torch.set_num_threads(1)

VOCAB, N_HASH, CLASSES = 3000, 512, ["ham", "spam", "phishing"]
words = [f"w{i}" for i in range(VOCAB)]
CUES = {0: range(0, 60), 1: range(60, 120), 2: range(120, 180)}


def make_message():
    label = int(torch.randint(0, 3, (1,)))
    n = int(torch.randint(6, 20, (1,)))
    toks = torch.randint(180, VOCAB, (n,)).tolist()
    cue = CUES[label]
    for _ in range(int(torch.randint(0, 3, (1,)))):
        toks[int(torch.randint(0, n, (1,)))] = cue.start + int(torch.randint(0, len(cue), (1,)))
    if torch.rand(1) < 0.25:
        label = int(torch.randint(0, 3, (1,)))  # label not predictable from the text
    return " ".join(words[t] for t in toks), label


rows = [make_message() for _ in range(2400)]
for _ in range(300):  # bulk campaigns: the same text sent many times
    text, label = make_message()
    for k in range(8):
        variant = text.upper() if k % 3 == 1 else (text + "  " if k % 3 == 2 else text)
        rows.append((variant, label))


def prepare_rows(rows):
    seen, unique = set(), []
    for text, label in rows:
        key = " ".join(text.lower().split())
        if key not in seen:
            seen.add(key)
            unique.append((text, label))
    return unique


def featurize(texts):
    X = torch.zeros(len(texts), N_HASH)
    for i, t in enumerate(texts):
        for tok in t.lower().split():
            X[i, zlib.crc32(tok.encode()) % N_HASH] += 1.0
    return X


rows = prepare_rows(rows)
perm = torch.randperm(len(rows)).tolist()
n_test = int(0.2 * len(rows))
test_rows = [rows[i] for i in perm[:n_test]]
train_rows = [rows[i] for i in perm[n_test:]]
X_train, y_train = featurize([t for t, _ in train_rows]), torch.tensor([l for _, l in train_rows])
X_test, y_test = featurize([t for t, _ in test_rows]), torch.tensor([l for _, l in test_rows])

model = nn.Sequential(nn.Linear(N_HASH, 128), nn.ReLU(), nn.Linear(128, len(CLASSES)))
optimizer = torch.optim.Adam(model.parameters(), lr=2e-3)
for epoch in range(25):
    model.train()
    order = torch.randperm(len(X_train))
    for i in range(0, len(order), 64):
        idx = order[i:i + 64]
        loss = F.cross_entropy(model(X_train[idx]), y_train[idx])
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    if epoch % 5 == 4:
        with torch.no_grad():
            print(f"epoch {epoch + 1} train loss {F.cross_entropy(model(X_train), y_train).item():.4f}")

model.eval()
with torch.no_grad():
    logits = model(X_test)
    test_loss = F.cross_entropy(logits, y_test).item()
    acc = (logits.argmax(1) == y_test).float().mean().item()
print(f"final_loss={test_loss:.6g} acc={acc:.4f}")
