"""Two-layer digit classifier from the softmax tutorial -- fixed by drawing the weight matrices from
N(0, 0.1^2) instead of zeros (biases stay zero), which breaks the symmetry between the hidden units so
they can learn different features (nothing else changed).
"""
import argparse

import torch
import torch.nn.functional as F

ap = argparse.ArgumentParser()
ap.add_argument("--seed", type=int, default=0)
args = ap.parse_args()
torch.manual_seed(args.seed)
torch.set_num_threads(1)

templates = (torch.rand(10, 196) < 0.3).float()


def digits(n):
    y = torch.randint(0, 10, (n,))
    x = templates[y] * (0.5 + 0.5 * torch.rand(n, 1)) + 0.6 * torch.randn(n, 196)
    return x.clamp(0, 1), y


def init(*shape):
    return 0.1 * torch.randn(*shape)


X_train, y_train = digits(6000)
X_test, y_test = digits(1000)
W1, b1 = init(196, 256).requires_grad_(), torch.zeros(256, requires_grad=True)
W2, b2 = init(256, 10).requires_grad_(), torch.zeros(10, requires_grad=True)
params = [W1, b1, W2, b2]


def model(x):
    return torch.sigmoid(x @ W1 + b1) @ W2 + b2


for step in range(600):
    idx = torch.randint(0, len(X_train), (100,))
    loss = F.cross_entropy(model(X_train[idx]), y_train[idx])
    for p in params:
        p.grad = None
    loss.backward()
    with torch.no_grad():
        for p in params:
            p -= 0.5 * p.grad
    if step % 100 == 99:
        with torch.no_grad():
            logits = model(X_test)
            test_loss = F.cross_entropy(logits, y_test).item()
            acc = (logits.argmax(1) == y_test).float().mean().item()
        print(f"step {step} batch {loss.item():.4f} test {test_loss:.4f} acc {acc:.3f}")

print(f"final_loss={test_loss:.6g} acc={acc:.4f}")
