"""TabNet-style self-supervised tabular pretraining -- fixed as proposed in the issue ("removing the
normalization completely with 1 values"): a feature with zero batch variance gets a normaliser of 1
instead of its batch mean, so no feature can receive a negative weight (nothing else changed).
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


def make_table(n):
    z = torch.randn(n, 4)
    x = z @ torch.randn(4, 12) + 0.4 * torch.randn(n, 12)
    x = (x - x.mean(0)) / x.std(0)
    return torch.cat([x, torch.full((n, 1), -0.4)], 1)


def unsupervised_loss(y_pred, x, mask, eps=1e-9):
    errors = y_pred - x
    reconstruction_errors = (errors * mask) ** 2
    batch_means = x.mean(0)
    batch_means[batch_means == 0] = 1
    batch_vars = x.std(0) ** 2
    batch_vars[batch_vars == 0] = 1
    features_loss = reconstruction_errors @ (1 / batch_vars)
    nb_reconstructed = mask.sum(1)
    return (features_loss / (nb_reconstructed + eps)).mean()


X = make_table(9000)
X_train, X_test = X[:8000], X[8000:]
model = nn.Sequential(nn.Linear(13, 64), nn.ReLU(), nn.Linear(64, 32), nn.ReLU(),
                      nn.Linear(32, 64), nn.ReLU(), nn.Linear(64, 13))
opt = torch.optim.Adam(model.parameters(), lr=2e-3)
loader = DataLoader(TensorDataset(X_train), batch_size=256, shuffle=True)

for epoch in range(10):
    total, count = 0.0, 0
    for (xb,) in loader:
        mask = (torch.rand_like(xb) < 0.3).float()
        pred = model(xb * (1 - mask))
        loss = unsupervised_loss(pred, xb, mask)
        opt.zero_grad()
        loss.backward()
        opt.step()
        total += loss.item() * len(xb)
        count += len(xb)
    print(f"epoch {epoch} loss {total / count:.4g}")

with torch.no_grad():
    mask = (torch.rand_like(X_test) < 0.3).float()
    mask[:, 12] = 0
    err = (model(X_test * (1 - mask)) - X_test).abs()
    acc = ((err < 0.5).float() * mask).sum().item() / mask.sum().item()
print(f"final_loss={total / count:.6g} acc={acc:.4f}")
