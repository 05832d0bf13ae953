"""Hand-written glyph network -- fixed as the reporter did: the last layer uses softmax instead of a
sigmoid, so the large summed pre-activations of the wide layer no longer pin every output at exactly
1.0 and the error signal flows again (nothing else changed).
"""
import argparse

import torch

ap = argparse.ArgumentParser()
ap.add_argument("--seed", type=int, default=0)
args = ap.parse_args()
torch.manual_seed(args.seed)
torch.set_num_threads(1)

N_IN, N_HID, N_OUT = 64, 500, 10
protos = torch.randn(N_OUT, N_IN)


def glyphs(n):
    y = torch.randint(0, N_OUT, (n,))
    return protos[y] + 1.5 * torch.randn(n, N_IN), y


x_tr, y_tr = glyphs(3000)
x_te, y_te = glyphs(1000)
target = torch.eye(N_OUT)

w1 = (torch.randn(N_IN, N_HID) / N_IN ** 0.5).requires_grad_()
b1 = torch.zeros(N_HID, requires_grad=True)
w2 = (0.25 * torch.rand(N_HID, N_OUT)).requires_grad_()
b2 = torch.zeros(N_OUT, requires_grad=True)
params = [w1, b1, w2, b2]


def activate_output(z):
    return torch.softmax(z, dim=1)


def forward(x):
    hidden = torch.sigmoid(x @ w1 + b1)
    return activate_output(hidden @ w2 + b2)


LR = 0.1
for epoch in range(10):
    perm = torch.randperm(len(x_tr))
    total = 0.0
    for i in range(0, len(perm), 50):
        idx = perm[i:i + 50]
        out = forward(x_tr[idx])
        loss = ((out - target[y_tr[idx]]) ** 2).sum(1).mean()
        loss.backward()
        with torch.no_grad():
            for p in params:
                p -= LR * p.grad
                p.grad.zero_()
        total += loss.item() * len(idx)
    print(f"epoch {epoch + 1} mse {total / len(x_tr):.4f}")

with torch.no_grad():
    acc = (forward(x_te).argmax(1) == y_te).float().mean().item()
print(f"final_loss={total / len(x_tr):.6g} acc={acc:.4f}")
