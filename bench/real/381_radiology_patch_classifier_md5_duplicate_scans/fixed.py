"""Radiology pathology classifier -- fixed by de-duplicating the training table when it is loaded (identical descriptor rows, the equivalent of identical MD5 hashes, are kept once with `torch.unique(..., dim=0)`), so the step budget is spread over distinct scans (nothing else changed).
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

K, D = 8, 48
centers = torch.randn(K, 3, D) * 1.1


def scans(n):
    y = torch.randint(0, K, (n,))
    mode = torch.randint(0, 3, (n,))
    x = centers[y, mode] + torch.randn(n, D)
    x[:, :8] = torch.tanh(x[:, :8]) + 0.4 * x[:, 8:16] * x[:, 16:24]
    return x, y


X_unique, y_unique = scans(1500)
copies = torch.randint(0, 1500, (50,)).repeat_interleave(50)
X_files = torch.cat([X_unique, X_unique[copies]])
y_files = torch.cat([y_unique, y_unique[copies]])
X_test, y_test = scans(1000)


def load_table(x, y):
    _, inverse = torch.unique(x, dim=0, return_inverse=True)
    first = torch.full((int(inverse.max()) + 1,), len(x), dtype=torch.long).scatter_reduce(0, inverse, torch.arange(len(x)), "amin")
    return x[first], y[first]


X_train, y_train = load_table(X_files, y_files)
loader = DataLoader(TensorDataset(X_train, y_train), batch_size=64, shuffle=True)
model = nn.Sequential(nn.Linear(D, 96), nn.ReLU(), nn.Linear(96, 96), nn.ReLU(), nn.Linear(96, K))
opt = torch.optim.Adam(model.parameters(), lr=1e-3)

step = 0
while step < 250:
    for xb, yb in loader:
        loss = F.cross_entropy(model(xb), yb)
        opt.zero_grad()
        loss.backward()
        opt.step()
        step += 1
        if step % 50 == 0:
            print(f"step {step}: batch loss {loss.item():.4f}")
        if step == 250:
            break

with torch.no_grad():
    logits = model(X_test)
    test_loss = F.cross_entropy(logits, y_test).item()
    acc = (logits.argmax(1) == y_test).float().mean().item()
print(f"final_loss={test_loss:.6g} acc={acc:.4f}")
