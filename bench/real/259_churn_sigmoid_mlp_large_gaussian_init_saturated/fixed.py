"""Churn classifier with sigmoid hidden layers -- fixed by initialising the weights small, as the
course note and the answer imply: torch.randn scaled by 1/sqrt(fan_in) instead of by 5, so the hidden
pre-activations start in the responsive range of the sigmoid. Nothing else changed.
"""
import argparse

import torch
import torch.nn.functional as F

ap = argparse.ArgumentParser()
ap.add_argument("--seed", type=int, default=0)
args = ap.parse_args()
torch.manual_seed(args.seed)
torch.set_num_threads(1)

FEATS, HIDDEN = 18, 64


def customers(n):
    x = torch.randn(n, FEATS)
    score = -1.2 * x[:, 0] + 0.9 * torch.relu(x[:, 1]) + 0.7 * x[:, 2] * x[:, 3] + 0.6 * x[:, 4] - 0.5 * x[:, 5] ** 2
    return x, (score + 0.4 * torch.randn(n) > 0).float()


def init_weight(n_in, n_out):
    return (torch.randn(n_in, n_out) / n_in ** 0.5).requires_grad_()


x_train, y_train = customers(5000)
x_val, y_val = customers(1500)
W1, W2, W3 = init_weight(FEATS, HIDDEN), init_weight(HIDDEN, HIDDEN), init_weight(HIDDEN, 1)
b1, b2, b3 = (torch.zeros(d, requires_grad=True) for d in (HIDDEN, HIDDEN, 1))
params = [W1, b1, W2, b2, W3, b3]


def forward(x):
    h1 = torch.sigmoid(x @ W1 + b1)
    h2 = torch.sigmoid(h1 @ W2 + b2)
    return (h2 @ W3 + b3).squeeze(1)


opt = torch.optim.SGD(params, lr=0.1, momentum=0.9)
BATCH = 100
for epoch in range(12):
    perm = torch.randperm(len(x_train))
    total = 0.0
    for i in range(0, len(x_train), BATCH):
        idx = perm[i:i + BATCH]
        loss = F.binary_cross_entropy_with_logits(forward(x_train[idx]), y_train[idx])
        opt.zero_grad()
        loss.backward()
        opt.step()
        total += loss.item() * len(idx)
    if epoch % 3 == 0:
        print(f"epoch {epoch} train bce {total / len(x_train):.4f}")

with torch.no_grad():
    logits = forward(x_val)
    val_loss = F.binary_cross_entropy_with_logits(logits, y_val).item()
    acc = ((logits > 0).float() == y_val).float().mean().item()
print(f"final_loss={val_loss:.6g} acc={acc:.4f}")
