"""Fixed version of 03_zero_grad_outside_loop/buggy.py (the source and the report are in its docstring).

Fix: optimizer.zero_grad() inside the loop, before each backward.
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

X = torch.randn(4000, 16)
w_true = torch.randn(16, 1)
Y = X @ w_true + 0.1 * torch.randn(4000, 1)
train_loader = DataLoader(TensorDataset(X, Y), batch_size=50, shuffle=True)


class Predictor(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc1 = nn.Linear(16, 64)
        self.fc2 = nn.Linear(64, 1)

    def forward(self, x):
        return self.fc2(F.relu(self.fc1(x)))


model = Predictor()
optimizer = torch.optim.SGD(model.parameters(), lr=0.01, momentum=0.9)

history = []
for epoch in range(4):
    model.train()
    for xb, yb in train_loader:
        optimizer.zero_grad()
        pred = model(xb)
        loss = F.mse_loss(pred, yb)
        loss.backward()
        optimizer.step()
        history.append(loss.item())

with torch.no_grad():
    r2 = 1 - F.mse_loss(model(X), Y).item() / Y.var().item()
print(f"final_loss={sum(history[-20:]) / 20:.6g} acc={r2:.4f}")
