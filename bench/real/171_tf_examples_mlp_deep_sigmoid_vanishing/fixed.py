"""Digit-classification MLP, six hidden layers -- fixed as in the PR: the hidden activations are ReLU
instead of sigmoid (nothing else changed).
"""
import argparse

import torch
import torch.nn.functional as F

ap = argparse.ArgumentParser()
ap.add_argument("--seed", type=int, default=0)
args = ap.parse_args()
torch.manual_seed(args.seed)
torch.set_num_threads(1)

SIDE, N_CLASSES = 16, 10


def make_templates():
    g = torch.Generator().manual_seed(1234)
    temps = torch.zeros(N_CLASSES, SIDE, SIDE)
    for c in range(N_CLASSES):
        for _ in range(3):  # three strokes per digit
            r0, c0, r1, c1 = (torch.randint(2, SIDE - 2, (4,), generator=g)).tolist()
            for t in torch.linspace(0, 1, 24):
                r = int(round(r0 + (r1 - r0) * t.item()))
                k = int(round(c0 + (c1 - c0) * t.item()))
                temps[c, r, k] = 1.0
    return temps


def make_digits(n, temps):
    y = torch.randint(0, N_CLASSES, (n,))
    imgs = temps[y].unsqueeze(1)
    imgs = F.max_pool2d(imgs, 3, 1, 1) * (torch.rand(n, 1, 1, 1) < 0.5) + imgs * 1.0
    imgs = imgs.clamp(max=1.0).squeeze(1)
    out = torch.zeros_like(imgs)
    for i in range(n):
        dr, dc = torch.randint(-2, 3, (2,)).tolist()
        out[i] = torch.roll(imgs[i], shifts=(dr, dc), dims=(0, 1))
    out = (out + 0.25 * torch.randn_like(out)).clamp(0, 1)
    return out.reshape(n, -1), y


temps = make_templates()
X_train, y_train = make_digits(6000, temps)
X_test, y_test = make_digits(2000, temps)

n_input, n_hidden, n_layers = SIDE * SIDE, 128, 6
sizes = [n_input] + [n_hidden] * n_layers
weights = [(torch.randn(a, b) / a ** 0.5).requires_grad_() for a, b in zip(sizes[:-1], sizes[1:])]
biases = [torch.zeros(b, requires_grad=True) for b in sizes[1:]]
w_out = (torch.randn(n_hidden, N_CLASSES) / n_hidden ** 0.5).requires_grad_()
b_out = torch.zeros(N_CLASSES, requires_grad=True)
params = weights + biases + [w_out, b_out]


def neural_net(x):
    layer = x
    for w, b in zip(weights, biases):
        layer = torch.relu(layer @ w + b)
    return layer @ w_out + b_out


optimizer = torch.optim.SGD(params, lr=0.1)
batch_size, epochs = 128, 12
for epoch in range(epochs):
    perm = torch.randperm(len(X_train))
    total, count = 0.0, 0
    for i in range(0, len(X_train), batch_size):
        idx = perm[i:i + batch_size]
        logits = neural_net(X_train[idx])
        loss = F.cross_entropy(logits, y_train[idx])
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        total += loss.item()
        count += 1
    print(f"epoch {epoch} loss {total / count:.4f}")

with torch.no_grad():
    acc = (neural_net(X_test).argmax(1) == y_test).float().mean().item()
print(f"final_loss={total / count:.6g} acc={acc:.4f}")
