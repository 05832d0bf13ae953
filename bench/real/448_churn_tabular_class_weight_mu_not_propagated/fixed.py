"""Tabular churn classifier with a class-weighted cross-entropy: the same program with the weighting helper passing on the `mu` it is given (1.0) instead of the hard-coded 0.15, so churners get weight log(1 / 0.05) ~ 3 and the network learns to flag them.
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
    weights = smooth_class_weights(y, mu=mu)
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
