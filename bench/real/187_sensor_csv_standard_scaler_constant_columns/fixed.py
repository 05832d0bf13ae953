"""Machine-condition classifier on tabular sensor readings -- fixed as the maintainers suggest for
constant columns: the scaler sets the scale of a zero-variance column to 1, so constant columns
become 0 after centring instead of NaN (nothing else changed).
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


def make_rows(n):
    state = torch.randint(0, 4, (n,))
    centers = torch.randn(4, 18) * 1.5
    base = torch.tensor([50.0, 3.0, 0.2, 70.0, 12.0, 1.0] * 3)
    scale = torch.tensor([10.0, 0.5, 0.05, 8.0, 2.0, 0.3] * 3)
    info = base + scale * (centers[state] * 0.6 + torch.randn(n, 18))
    const = torch.cat([torch.zeros(n, 3), torch.ones(n, 3)], 1)
    return torch.cat([info[:, :9], const, info[:, 9:]], 1), state


class StandardScaler:
    def fit(self, x):
        self.mean_ = x.mean(0)
        self.scale_ = x.std(0, unbiased=False)
        self.scale_[self.scale_ == 0] = 1.0
        return self

    def transform(self, x):
        return (x - self.mean_) / self.scale_


torch.manual_seed(1234)
X, y = make_rows(5000)
torch.manual_seed(args.seed)
perm = torch.randperm(len(X))
X, y = X[perm], y[perm]
X_train, y_train, X_test, y_test = X[:4000], y[:4000], X[4000:], y[4000:]
scaler = StandardScaler().fit(X_train)
X_train, X_test = scaler.transform(X_train), scaler.transform(X_test)

model = nn.Sequential(nn.Linear(24, 64), nn.ReLU(), nn.Linear(64, 32), nn.ReLU(), nn.Linear(32, 4))
opt = torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9)

for epoch in range(15):
    order = torch.randperm(len(X_train))
    total = 0.0
    for i in range(0, len(order), 100):
        idx = order[i:i + 100]
        loss = F.cross_entropy(model(X_train[idx]), y_train[idx])
        opt.zero_grad()
        loss.backward()
        opt.step()
        total += loss.item() * len(idx)
    print(f"epoch {epoch} loss {total / len(order):.4f}")

with torch.no_grad():
    acc = (model(X_test).argmax(1) == y_test).float().mean().item()
print(f"final_loss={total / len(order):.6g} acc={acc:.4f}")
