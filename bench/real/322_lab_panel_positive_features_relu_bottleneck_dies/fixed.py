"""Two-marker lab-panel screen: a binary classifier reads two always-positive blood markers through a narrow hidden layer (2 -> 4 units -> 1 logit, BCE), trained with per-sample SGD.

Fixed: the hidden activation is LeakyReLU(0.1) instead of ReLU, so a unit pushed below zero for
every patient still passes a gradient and can recover.
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


def patients(n):
    a = 2 + 6 * torch.rand(n)
    b = 2 + 6 * torch.rand(n)
    y = ((a / b + 0.15 * torch.randn(n)) > 1.0).float()
    return torch.stack([a, b], 1), y


X_train, y_train = patients(2000)
X_test, y_test = patients(600)

model = nn.Sequential(nn.Linear(2, 4), nn.LeakyReLU(0.1), nn.Linear(4, 1))
with torch.no_grad():
    for p in model.parameters():
        p.uniform_(-0.5, 0.5)
opt = torch.optim.SGD(model.parameters(), lr=0.3)
sched = torch.optim.lr_scheduler.ExponentialLR(opt, gamma=0.5)

for epoch in range(5):
    total = 0.0
    for i in torch.randperm(len(X_train)).tolist():
        loss = F.binary_cross_entropy_with_logits(model(X_train[i:i + 1]).squeeze(1), y_train[i:i + 1])
        opt.zero_grad()
        loss.backward()
        opt.step()
        total += loss.item()
    sched.step()
    with torch.no_grad():
        logits = model(X_test).squeeze(1)
        test_loss = F.binary_cross_entropy_with_logits(logits, y_test).item()
        acc = ((logits > 0).float() == y_test).float().mean().item()
    print(f"epoch {epoch} train {total / len(X_train):.4f} test {test_loss:.4f} acc {acc:.3f}")

print(f"final_loss={test_loss:.6g} acc={acc:.4f}")
