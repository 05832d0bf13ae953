"""Semantic column-type detector (each sample is a table column of 20 string cells; a feature
extractor turns the column into 16 statistics -- character-class fractions, cell lengths, and the
mean / std / mean-absolute / root-mean-square of the cells that parse as numbers; an MLP predicts one of 6 types; Adam,
DataLoader). For columns with no numeric cell at all (names, e-mails, cities...) the numeric statistics
are taken over an empty list and come out as NaN, and the feature matrix goes to training as is. The
first batch holding such a column makes the loss NaN, Adam spreads NaN into every weight, and the
model ends up predicting a single type for everything.

Source: https://github.com/mitmedialab/sherlock-project/issues/11 (nn_id=retrain_sherlock does not generate loss value)
Report: "whenever i try to train the model ... the loss value is NaN from 1st epoch. The predictions
for all the fieldtype is email." -- answers: "Please check your train data (preprocessed), there might
be np.nan value." / "I had the same issue and it was related to null values after the
extract_features() Please use fillna on the dataframe. X_train.fillna(value=0, inplace=True)".
Reproduced with 1,800 synthetic columns of 6 types (name, e-mail, city, year, price, phone), 20 cells
each, 16 extracted features (numeric statistics NaN when no cell parses), MLP 16-64-6, Adam lr 3e-3,
batch 64, 10 epochs. The printed loss is the validation cross-entropy on 600 columns, `acc` the
validation accuracy.

expect: data-nonfinite
symptom: nonfinite
batch: 15
"""
import argparse
import random

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset

ap = argparse.ArgumentParser()
ap.add_argument("--seed", type=int, default=0)
args = ap.parse_args()
torch.manual_seed(args.seed)
rng = random.Random(args.seed)
torch.set_num_threads(1)

TYPES = ["name", "email", "city", "year", "price", "phone"]
SYL = ["an", "ber", "co", "da", "el", "fi", "go", "ha", "in", "jo", "ka", "lu", "ma", "ne", "or", "pe", "ri", "sa"]


def word(k):
    return "".join(rng.choice(SYL) for _ in range(k)).capitalize()


def cell(kind):
    if kind == "name":
        return f"{word(2)} {word(rng.randint(2, 3))}"
    if kind == "email":
        return f"{word(2).lower()}.{word(2).lower()}@{rng.choice(['mail', 'corp', 'uni'])}.com"
    if kind == "city":
        return word(rng.randint(2, 4)) + rng.choice(["", " City", "ville", "burg"])
    if kind == "year":
        return str(rng.randint(1900, 2024))
    if kind == "price":
        return f"{rng.uniform(1, 500):.2f}"
    return f"+{rng.randint(1, 99)} {rng.randint(100, 999)} {rng.randint(1000, 9999)}"


def parse(s):
    try:
        return float(s)
    except ValueError:
        return None


def extract_features(cells):
    text = "".join(cells)
    n = max(len(text), 1)
    lengths = torch.tensor([len(c) for c in cells], dtype=torch.float)
    nums = torch.tensor([v for v in map(parse, cells) if v is not None], dtype=torch.float)
    frac = lambda pred: sum(pred(ch) for ch in text) / n
    return [frac(str.isdigit), frac(str.isalpha), frac(str.isupper), frac(str.isspace), frac(lambda c: c == "@"),
            frac(lambda c: c == "."), frac(lambda c: c == "+"), lengths.mean().item() / 10, lengths.std().item() / 10,
            len(nums) / len(cells), nums.mean().item() / 1000, nums.std().item() / 1000,
            nums.abs().mean().item() / 1000, (nums ** 2).mean().sqrt().item() / 1000,
            len(set(cells)) / len(cells), sum(" " in c for c in cells) / len(cells)]


def columns(n):
    feats, labels = [], []
    for _ in range(n):
        k = rng.randrange(len(TYPES))
        feats.append(extract_features([cell(TYPES[k]) for _ in range(20)]))
        labels.append(k)
    return torch.tensor(feats), torch.tensor(labels)


def clean(x):
    return x


x_train, y_train = columns(1800)
x_val, y_val = columns(600)
x_train, x_val = clean(x_train), clean(x_val)
loader = DataLoader(TensorDataset(x_train, y_train), batch_size=64, shuffle=True)
model = nn.Sequential(nn.Linear(16, 64), nn.ReLU(), nn.Linear(64, len(TYPES)))
opt = torch.optim.Adam(model.parameters(), lr=3e-3)
for epoch in range(10):
    total = 0.0
    for xb, yb in loader:
        loss = F.cross_entropy(model(xb), yb)
        opt.zero_grad()
        loss.backward()
        opt.step()
        total += loss.item() * len(yb)
    if epoch % 3 == 0:
        print(f"epoch {epoch} train loss {total / len(y_train):.4f}")

with torch.no_grad():
    out = model(x_val)
    val_loss = F.cross_entropy(out, y_val).item()
    acc = (out.argmax(1) == y_val).float().mean().item()
print(f"final_loss={val_loss:.6g} acc={acc:.4f}")
