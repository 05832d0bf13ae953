"""Eight-layer from-scratch digit MLP -- fixed as in the PR: every weight matrix uses He
initialisation, N(0, 2 / fan_in), so the signal and the gradient keep their scale through the ReLU
layers (nothing else changed).
"""
import argparse

import torch
import torch.nn.functional as F

ap = argparse.ArgumentParser()
ap.add_argument("--seed", type=int, default=0)
args = ap.parse_args()
torch.manual_seed(args.seed)
torch.set_num_threads(1)

DEPTH, WIDTH = 8, 64
prototypes = (torch.rand(10, 64) < 0.3).float()


def make_digits(n):
    y = torch.randint(0, 10, (n,))
    return (prototypes[y] + 0.9 * torch.randn(n, 64)).clamp(0, 1), y


def init_layer(fan_in, fan_out):
    w = torch.randn(fan_in, fan_out) * (2.0 / fan_in) ** 0.5
    return w.requires_grad_(), torch.zeros(fan_out, requires_grad=True)


layers = [init_layer(64 if i == 0 else WIDTH, WIDTH) for i in range(DEPTH)] + [init_layer(WIDTH, 10)]
params = [p for layer in layers for p in layer]


def forward(x):
    for w, b in layers[:-1]:
        x = torch.relu(x @ w + b)
    w, b = layers[-1]
    return x @ w + b


X, Y = make_digits(6000)
Xte, Yte = make_digits(1000)
for epoch in range(5):
    perm, total = torch.randperm(len(X)), 0.0
    for i in range(0, len(X), 32):
        idx = perm[i:i + 32]
        loss = F.cross_entropy(forward(X[idx]), Y[idx])
        for p in params:
            p.grad = None
        loss.backward()
        with torch.no_grad():
            for p in params:
                p -= 0.1 * p.grad
        total += loss.item() * len(idx)
    train_loss = total / len(X)
    print(f"epoch {epoch} loss {train_loss:.4f}")

with torch.no_grad():
    acc = (forward(Xte).argmax(1) == Yte).float().mean().item()
print(f"final_loss={train_loss:.6g} acc={acc:.4f}")
