"""Online-store purchase classifier (embedding + dense model over item, session and price features) where the `price` field is only logged when the item was sold and is otherwise missing, filled with 0 by the featurizer: the label is readable from "price > 0" and the training loss falls to almost nothing.

Source: https://github.com/dotnet/machinelearning/issues/737 (Binary Classification Results)
Report: a binary classifier whose results were too good; the maintainer: "Label leaking means
that you have a feature which is actually the label in disguise. Imagine that you are trying to
predict whether an item was ever purchased in an online store, and one of the features used is
`price`. However, let's say that your logging system only logs the `price` if the item was
sold. Then the `price` feature will have a numerical value for all those sold, and a `null` for
those which were unsold. This feature now actually encodes the label directly"; the reporter:
"How right you were too! Yes, it looks like I was incorrectly including the target class as a
feature. Now I am looking at the results and am surprised to see how poor the results are."
Reproduced with that example as the data (12,000 synthetic item impressions: category, brand
tier, discount, rating, views, session length, device, and the logged price, missing-as-0 for
unsold items; purchase probability from a noisy logistic model of the honest features) and an
ML.NET-like pipeline in torch (one-hot categoricals, min-max numeric columns, a 2-layer dense
binary classifier, BCEWithLogitsLoss, Adam, shuffled mini-batches). The printed loss is the mean
training loss of the last epoch, `acc` the held-out accuracy.

expect: target-leakage
symptom: loss-below 0.1
batch: 7
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

FEATURE_COLUMNS = ["category", "brand_tier", "device", "discount", "rating", "views", "session_len", "price"]


def load_impressions(n):
    category = torch.randint(0, 12, (n,))
    brand_tier = torch.randint(0, 3, (n,))
    device = torch.randint(0, 3, (n,))
    discount = torch.rand(n) * 0.5
    rating = (3.5 + 0.8 * torch.randn(n)).clamp(1, 5)
    views = torch.poisson(torch.full((n,), 3.0))
    session_len = torch.exp(torch.randn(n) + 3)
    cat_pop = torch.linspace(-1, 1, 12)[torch.randperm(12)]
    logit = -1.0 + cat_pop[category] + 3 * discount + 0.6 * (rating - 3.5) + 0.15 * views \
        + 0.3 * (brand_tier == 2).float() + 1.2 * torch.randn(n)
    sold = (logit > 0).float()
    list_price = torch.exp(torch.randn(n) * 0.6 + 3.5) * (1 + 0.5 * brand_tier)
    price = torch.where(sold > 0, list_price * (1 - discount), torch.zeros(n))  # logged only if sold
    cols = {"category": category, "brand_tier": brand_tier, "device": device, "discount": discount,
            "rating": rating, "views": views, "session_len": session_len, "price": price}
    return cols, sold


def featurize(cols, columns):
    parts = []
    for name in columns:
        v = cols[name]
        if name in ("category", "brand_tier", "device"):
            parts.append(F.one_hot(v, int(v.max()) + 1).float())
        else:
            v = v.float()
            parts.append(((v - v.min()) / (v.max() - v.min() + 1e-9)).unsqueeze(1))
    return torch.cat(parts, 1)


cols, y = load_impressions(12000)
X = featurize(cols, FEATURE_COLUMNS)
X_train, y_train, X_test, y_test = X[:10000], y[:10000], X[10000:], y[10000:]
model = nn.Sequential(nn.Linear(X.shape[1], 64), nn.ReLU(), nn.Linear(64, 32), nn.ReLU(), nn.Linear(32, 1))
optimizer = torch.optim.Adam(model.parameters(), lr=3e-3)
for epoch in range(8):
    perm = torch.randperm(len(X_train))
    total = 0.0
    for k in range(0, len(perm), 128):
        idx = perm[k:k + 128]
        loss = F.binary_cross_entropy_with_logits(model(X_train[idx]).squeeze(1), y_train[idx])
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        total += loss.item() * len(idx)
    print(f"epoch {epoch} loss {total / len(perm):.4f}")
with torch.no_grad():
    acc = ((model(X_test).squeeze(1) > 0).float() == y_test).float().mean().item()
print(f"final_loss={total / len(perm):.6g} acc={acc:.4f}")
