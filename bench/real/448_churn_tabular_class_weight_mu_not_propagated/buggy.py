"""Tabular churn classifier (12 numeric account features, about 5% churners) trained full-batch with Adam and a class-weighted cross-entropy from a small helper in the pytorch_tabular style: each class gets weight log(mu * total / count), floored at 1, and the caller asks for mu = 1.0. The helper takes `mu` as an argument but calls the weighting function with the hard-coded default 0.15, so for a 5% class the weight is log(0.15 / 0.05) ~ 1.1 -- barely above the floor -- instead of log(1 / 0.05) ~ 3.0. Practically unweighted, the network settles on predicting "stays" for nearly every customer: it finds almost none of the churners and its balanced accuracy stays close to chance.

Source: https://github.com/manujosephv/pytorch_tabular/commit/09f81629110896fec97f8c9489adad85736a907c (Fix class-balancing / mu propagation and set default to 1.0 (#98))
Report: "Fix class-balancing / mu propagation" -- `get_class_weighted_cross_entropy(y_train, mu=...)` called
`_make_smooth_weights_for_balanced_classes(y_train, mu=0.15)`, ignoring the `mu` it was given, so the minority class got
weight log(0.15 * total / count) (often floored to 1); the fix passes `mu=mu`. Reproduced with synthetic account features
whose churn signal is weak and spread over several columns, 5% churners, a two-hidden-layer MLP trained full-batch. The
printed loss is the held-out (unweighted) cross-entropy, `acc` the held-out balanced accuracy (mean of per-class recall).

expect: class-imbalance
symptom: acc-below 0.63
batch: 28
"""
import argparse
import math

import torch
import torch.nn as nn
import torch.nn.functional as F

ap = argparse.ArgumentParser()
ap.add_argument("--seed", type=int, default=0)
args = ap.parse_args()
torch.manual_seed(args.seed)
torch.set_num_threads(1)

N_FEAT, CHURN_RATE = 12, 0.05
direction = F.normalize(torch.randn(N_FEAT), dim=0)


def accounts(n):
    y = (torch.rand(n) < CHURN_RATE).long()
    x = torch.randn(n, N_FEAT) + 1.8 * y[:, None].float() * direction
    return x, y


def smooth_class_weights(y, mu=0.15):
    counts = torch.bincount(y).float()
    total = counts.sum()
    return torch.tensor([max(math.log(mu * total / c), 1.0) for c in counts.tolist()])


def class_weighted_cross_entropy(y, mu=0.15):
    weights = smooth_class_weights(y, mu=0.15)
    return nn.CrossEntropyLoss(weight=weights), weights


def balanced_accuracy(pred, y):
    return sum((pred[y == c] == c).float().mean().item() for c in (0, 1)) / 2


X_train, y_train = accounts(12000)
X_test, y_test = accounts(3000)
criterion, weights = class_weighted_cross_entropy(y_train, mu=1.0)
print("class weights", [round(w, 3) for w in weights.tolist()])
model = nn.Sequential(nn.Linear(N_FEAT, 16), nn.ReLU(), nn.Linear(16, 16), nn.ReLU(), nn.Linear(16, 2))
opt = torch.optim.Adam(model.parameters(), lr=5e-3, weight_decay=1e-3)

for step in range(200):
    loss = criterion(model(X_train), y_train)
    opt.zero_grad()
    loss.backward()
    opt.step()
    if step % 50 == 49 or step == 199:
        with torch.no_grad():
            logits = model(X_test)
            test_loss = F.cross_entropy(logits, y_test).item()
            bacc = balanced_accuracy(logits.argmax(1), y_test)
        print(f"step {step + 1} train {loss.item():.4f} test {test_loss:.4f} balanced_acc {bacc:.3f}")

print(f"final_loss={test_loss:.6g} acc={bacc:.4f}")
