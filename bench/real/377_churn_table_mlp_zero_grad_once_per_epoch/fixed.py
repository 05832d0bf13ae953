"""Telecom churn classifier -- fixed by clearing the gradients before every batch (`opt.zero_grad()` moved from the top of the epoch loop into the batch loop), so each step uses only the current batch's gradient (nothing else changed).
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


def customers(n):
    x = torch.randn(n, 12)
    score = 1.2 * x[:, 0] - 0.9 * x[:, 1] + 0.8 * x[:, 2] * x[:, 3] + 0.6 * torch.tanh(2 * x[:, 4]) - 0.5 * x[:, 5] ** 2
    y = (score + 0.3 * torch.randn(n) > -0.3).long()
    return x, y


X_train, y_train = customers(4000)
X_test, y_test = customers(1000)
loader = DataLoader(TensorDataset(X_train, y_train), batch_size=64, shuffle=True)

model = nn.Sequential(nn.Linear(12, 32), nn.ReLU(), nn.Linear(32, 2))
opt = torch.optim.SGD(model.parameters(), lr=0.02, momentum=0.9)

for epoch in range(8):
    model.train()
    running = 0.0
    for xb, yb in loader:
        opt.zero_grad()
        loss = F.cross_entropy(model(xb), yb)
        loss.backward()
        opt.step()
        running += loss.item() * len(xb)
    print(f"epoch {epoch}: train loss {running / len(X_train):.4f}")

model.eval()
with torch.no_grad():
    logits = model(X_test)
    test_loss = F.cross_entropy(logits, y_test).item()
    acc = (logits.argmax(1) == y_test).float().mean().item()
print(f"final_loss={test_loss:.6g} acc={acc:.4f}")
