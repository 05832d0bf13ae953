"""Adversarially-trained digit MLP -- fixed as in the pull request: each cross-entropy term is
averaged over the batch (reduction mean) before the clean and adversarial terms are added, so the
gradient no longer scales with the batch size; nothing else changed.
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

prototypes = (torch.rand(10, 64) < 0.35).float()


def make_digits(n):
    y = torch.randint(0, 10, (n,))
    return (prototypes[y] + 0.4 * torch.randn(n, 64)).clamp(0, 1), y


def xent(logits, y):
    return F.cross_entropy(logits, y, reduction="mean")


def fgsm(model, x, y, eps=0.1):
    x = x.clone().requires_grad_(True)
    grad, = torch.autograd.grad(F.cross_entropy(model(x), y), x)
    return (x + eps * grad.sign()).clamp(0, 1).detach()


X_train, y_train = make_digits(6000)
X_test, y_test = make_digits(1500)
model = nn.Sequential(nn.Linear(64, 128), nn.ReLU(), nn.Linear(128, 10))
opt = torch.optim.SGD(model.parameters(), lr=0.05)

for epoch in range(5):
    perm = torch.randperm(len(X_train))
    total = 0.0
    for i in range(0, len(perm), 256):
        idx = perm[i:i + 256]
        xb, yb = X_train[idx], y_train[idx]
        x_adv = fgsm(model, xb, yb)
        loss = sum(xent(logits, yb) for logits in (model(xb), model(x_adv)))
        opt.zero_grad()
        loss.backward()
        opt.step()
        total += loss.item()
    print(f"epoch {epoch} loss {total:.4f}")

with torch.no_grad():
    logits = model(X_test)
    test_loss = F.cross_entropy(logits, y_test).item()
    acc = (logits.argmax(1) == y_test).float().mean().item()
print(f"final_loss={test_loss:.6g} acc={acc:.4f}")
