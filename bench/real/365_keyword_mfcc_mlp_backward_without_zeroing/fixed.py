"""Keyword-spotting MLP on MFCC features -- fixed by clearing the gradients at the start of every step
(`optimizer.zero_grad()`), so each update uses only the current batch's gradient (nothing else changed).
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

KEYWORDS, COEFFS = 12, 40
templates = torch.randn(KEYWORDS, COEFFS)


def make_clips(n):
    y = torch.randint(0, KEYWORDS, (n,))
    gain = 0.7 + 0.6 * torch.rand(n, 1)
    mfcc = gain * templates[y] + 2.2 * torch.randn(n, COEFFS)
    delta = 0.5 * templates[y].roll(1, dims=1) + 2.2 * torch.randn(n, COEFFS)
    return torch.cat([mfcc, delta], dim=1), y


X_train, y_train = make_clips(8000)
X_test, y_test = make_clips(1200)
loader = DataLoader(TensorDataset(X_train, y_train), batch_size=64, shuffle=True)
model = nn.Sequential(nn.Linear(2 * COEFFS, 64), nn.ReLU(), nn.Linear(64, 64), nn.ReLU(),
                      nn.Linear(64, KEYWORDS))
optimizer = torch.optim.SGD(model.parameters(), lr=0.01, momentum=0.9)


def train_step(xb, yb):
    optimizer.zero_grad()
    loss = F.cross_entropy(model(xb), yb)
    loss.backward()
    optimizer.step()
    return loss.item()


for epoch in range(4):
    losses = [train_step(xb, yb) for xb, yb in loader]
    print(f"epoch {epoch} loss {sum(losses) / len(losses):.4f}")

with torch.no_grad():
    acc = (model(X_test).argmax(1) == y_test).float().mean().item()
print(f"final_loss={sum(losses) / len(losses):.6g} acc={acc:.4f}")
