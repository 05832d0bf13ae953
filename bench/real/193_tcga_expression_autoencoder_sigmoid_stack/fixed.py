"""Gene-expression autoencoder -- fixed as in the report: the hidden activations are LeakyReLU instead
of Sigmoid, so the reconstruction gradient reaches the early layers (nothing else changed).
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

GENES, PROGRAMS = 400, 12
Act = nn.LeakyReLU


def make_profiles(n, loadings):
    z = torch.randn(n, PROGRAMS)
    return z @ loadings + 0.4 * torch.randn(n, GENES)


def autoencoder(sizes):
    layers = []
    for i in range(len(sizes) - 1):
        layers.append(nn.Linear(sizes[i], sizes[i + 1]))
        if i < len(sizes) - 2:
            layers.append(Act())
    return nn.Sequential(*layers)


loadings = torch.randn(PROGRAMS, GENES) * (torch.rand(PROGRAMS, GENES) < 0.3)
X = make_profiles(3500, loadings)
X = (X - X.mean(0)) / X.std(0)
X_train, X_test = X[:3000], X[3000:]

model = autoencoder([GENES, 128, 64, 16, 64, 128, GENES])
opt = torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9)
loss_fn = nn.MSELoss()
loader = DataLoader(TensorDataset(X_train), batch_size=64, shuffle=True)

for epoch in range(20):
    total, count = 0.0, 0
    for (xb,) in loader:
        loss = loss_fn(model(xb), xb)
        opt.zero_grad()
        loss.backward()
        opt.step()
        total += loss.item() * len(xb)
        count += len(xb)
    print(f"epoch {epoch} mse {total / count:.4f}")

with torch.no_grad():
    rec = model(X_test)
    r2 = 1 - ((rec - X_test) ** 2).sum(1) / ((X_test - X_test.mean(1, keepdim=True)) ** 2).sum(1)
    acc = (r2 > 0.5).float().mean().item()
print(f"final_loss={total / count:.6g} acc={acc:.4f}")
