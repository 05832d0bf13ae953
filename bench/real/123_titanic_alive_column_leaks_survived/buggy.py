"""Titanic survival MLP trained on seaborn's titanic table with every column one-hot encoded, including `alive`, which is `survived` spelled yes/no: the training loss drops to almost zero, far below what the passenger features allow.

Source: https://github.com/mwaskom/seaborn-data/issues/37 (Data leakage in Titanic data due to 'alive' column)
Report: "'alive' column in Titanic data creates data leakage during model trainings. 'survived'
and 'alive' columns mean the same thing in the dataset ... many models put all the feature
importance weight into 'alive' column when target column is 'survived'"; the maintainer: "if
you do not survive then you are no longer alive" -- the column is derived from the target and
must be dropped before training. Reproduced with the usual notebook recipe in torch (categorical
columns one-hot encoded with `get_dummies`-style encoding, numeric columns standardised, a
2-hidden-layer MLP, BCEWithLogitsLoss, Adam, mini-batches from a shuffled DataLoader) on 891
synthetic passengers drawn with Titanic's marginals and a survival model based on sex, class,
age and fare; the encoder keeps every non-target column, so `alive_no` / `alive_yes` go in. The
printed loss is the mean training loss of the last epoch, `acc` the held-out accuracy (of a
model that sees the same leaked column at test time, so it is also too good).

expect: target-leakage
symptom: loss-below 0.05
batch: 7
"""
import argparse

import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset

ap = argparse.ArgumentParser()
ap.add_argument("--seed", type=int, default=0)
args = ap.parse_args()
torch.manual_seed(args.seed)
torch.set_num_threads(1)


def make_titanic(n):
    """Columns as in seaborn's titanic table (the derived ones included)."""
    pclass = torch.multinomial(torch.tensor([0.24, 0.21, 0.55]), n, replacement=True) + 1
    sex = (torch.rand(n) < 0.35).long()  # 1 = female
    age = (29 + 14 * torch.randn(n)).clamp(0.5, 80)
    sibsp = torch.poisson(torch.full((n,), 0.5))
    parch = torch.poisson(torch.full((n,), 0.4))
    fare = torch.exp(torch.log(torch.tensor([84.0, 21.0, 13.0]))[pclass - 1] + 0.6 * torch.randn(n))
    embarked = torch.multinomial(torch.tensor([0.19, 0.09, 0.72]), n, replacement=True)
    logit = -1.2 + 2.6 * sex - 0.9 * (pclass - 2) - 0.02 * (age - 29) + 0.3 * torch.log(fare / 20) \
        - 0.25 * (sibsp > 2).float() + 0.8 * torch.randn(n)
    survived = (logit > 0).float()
    table = {
        "pclass": pclass, "sex": sex, "age": age, "sibsp": sibsp, "parch": parch, "fare": fare,
        "embarked": embarked, "alone": ((sibsp + parch) == 0).long(),
        "alive": survived.long(),  # 'yes' / 'no'
    }
    return table, survived


def encode(table):
    """get_dummies for categoricals, z-score for numerics; every column except the target."""
    cols = []
    for name, values in table.items():
        if name in ("pclass", "sex", "embarked", "alone", "alive"):
            k = int(values.max().item()) + 1 if name != "pclass" else 4
            cols.append(nn.functional.one_hot(values.long(), max(k, 2)).float())
        else:
            v = values.float()
            cols.append(((v - v.mean()) / (v.std() + 1e-6)).unsqueeze(1))
    return torch.cat(cols, 1)


table, y = make_titanic(1091)
X = encode(table)
X_train, y_train, X_test, y_test = X[:891], y[:891], X[891:], y[891:]
loader = DataLoader(TensorDataset(X_train, y_train), batch_size=32, shuffle=True)

model = nn.Sequential(nn.Linear(X.shape[1], 64), nn.ReLU(), nn.Linear(64, 32), nn.ReLU(), nn.Linear(32, 1))
criterion = nn.BCEWithLogitsLoss()
optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)

for epoch in range(40):
    total, count = 0.0, 0
    for xb, yb in loader:
        loss = criterion(model(xb).squeeze(1), yb)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        total += loss.item() * len(xb)
        count += len(xb)
    if epoch % 10 == 0:
        print(f"epoch {epoch} train_loss {total / count:.4f}")

with torch.no_grad():
    acc = ((model(X_test).squeeze(1) > 0).float() == y_test).float().mean().item()
print(f"final_loss={total / count:.6g} acc={acc:.4f}")
