"""Speaker-identification network -- fixed by lowering the initial learning rate from 0.8 to 0.02, inside the range where this network trains stably (the report's remedy of a smaller initial rate; nothing else changed).
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

SPEAKERS, LR = 30, 0.02
profile = torch.randn(SPEAKERS, 80)


def utterances(n):
    spk = torch.randint(0, SPEAKERS, (n,))
    session = 0.6 * torch.randn(n, 1) * torch.linspace(-1, 1, 80)
    return profile[spk] + session + 2.0 * torch.randn(n, 80), spk


X_train, y_train = utterances(6000)
X_test, y_test = utterances(1500)
mean, std = X_train.mean(0), X_train.std(0)
X_train, X_test = (X_train - mean) / std, (X_test - mean) / std

model = nn.Sequential(nn.Linear(80, 256), nn.ReLU(), nn.Linear(256, 128), nn.ReLU(), nn.Linear(128, SPEAKERS))
opt = torch.optim.SGD(model.parameters(), lr=LR, momentum=0.9, weight_decay=1e-4)
loader = DataLoader(TensorDataset(X_train, y_train), batch_size=64, shuffle=True)

for epoch in range(6):
    total = 0.0
    for xb, yb in loader:
        loss = F.cross_entropy(model(xb), yb)
        opt.zero_grad()
        loss.backward()
        opt.step()
        total += loss.item() * len(xb)
    print(f"epoch {epoch}: train loss {total / len(X_train):.4f}")

with torch.no_grad():
    logits = model(X_test)
    test_loss = F.cross_entropy(logits, y_test).item()
    acc = (logits.argmax(1) == y_test).float().mean().item()
print(f"final_loss={test_loss:.6g} acc={acc:.4f}")
