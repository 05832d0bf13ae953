"""Diabetes screening classifier -- fixed by excluding every dummy column derived from the target (all `Diabetes_binary_*` columns) from the features, so the model has to predict from the survey answers (nothing else changed).
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


def survey(n):
    cols = {
        "HighBP": (torch.rand(n) < 0.4).float(),
        "HighChol": (torch.rand(n) < 0.4).float(),
        "BMI": 28 + 6 * torch.randn(n),
        "Age": torch.randint(1, 14, (n,)).float(),
        "PhysActivity": (torch.rand(n) < 0.7).float(),
        "GenHlth": torch.randint(1, 6, (n,)).float(),
    }
    risk = (1.0 * cols["HighBP"] + 0.8 * cols["HighChol"] + 0.12 * (cols["BMI"] - 28) + 0.2 * (cols["Age"] - 7)
            - 0.5 * cols["PhysActivity"] + 0.5 * (cols["GenHlth"] - 3))
    diabetic = torch.rand(n) < torch.sigmoid(1.3 * risk)
    cols["Sex"] = [("female", "male")[int(b)] for b in (torch.rand(n) < 0.5).tolist()]
    cols["HairColor"] = [("black", "brown", "blond", "red")[int(k)] for k in torch.randint(0, 4, (n,)).tolist()]
    cols["Diabetes_binary"] = ["diabetes" if d else "no_diabetes" for d in diabetic.tolist()]
    return cols


def get_dummies(table, columns):
    out = {}
    for name, values in table.items():
        if name in columns:
            for level in sorted(set(values)):
                out[f"{name}_{level}"] = torch.tensor([float(v == level) for v in values])
        else:
            out[name] = values
    return out


def prepare(table):
    data = get_dummies(table, ["Diabetes_binary", "Sex", "HairColor"])
    y = data["Diabetes_binary_diabetes"].long()
    feature_names = [c for c in data if not c.startswith("Diabetes_binary_")]
    X = torch.stack([data[c] for c in feature_names], 1)
    return X, y


X_train, y_train = prepare(survey(8000))
X_test, y_test = prepare(survey(2000))
mean, std = X_train.mean(0), X_train.std(0)
X_train, X_test = (X_train - mean) / std, (X_test - mean) / std

model = nn.Sequential(nn.Linear(X_train.shape[1], 32), nn.ReLU(), nn.Linear(32, 2))
opt = torch.optim.Adam(model.parameters(), lr=1e-3)
loader = DataLoader(TensorDataset(X_train, y_train), batch_size=128, shuffle=True)

for epoch in range(5):
    total = 0.0
    for xb, yb in loader:
        loss = F.cross_entropy(model(xb), yb)
        opt.zero_grad()
        loss.backward()
        opt.step()
        total += loss.item() * len(xb)
    print(f"epoch {epoch}: train loss {total / len(X_train):.4f}")

with torch.no_grad():
    logits = model(X_test)
    test_loss = F.cross_entropy(logits, y_test).item()
    acc = (logits.argmax(1) == y_test).float().mean().item()
print(f"final_loss={test_loss:.6g} acc={acc:.4f}")
