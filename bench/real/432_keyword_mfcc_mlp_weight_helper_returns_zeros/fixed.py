"""Spoken-keyword MLP built from explicit parameter tensors -- fixed by restoring the random-normal initialization
(mean 0, std 0.01) in the `weight_variable` helper instead of zeros, so hidden units start different from one another
and from zero and receive gradients (nothing else changed).
"""
import argparse

import torch
import torch.nn.functional as F

ap = argparse.ArgumentParser()
ap.add_argument("--seed", type=int, default=0)
args = ap.parse_args()
torch.manual_seed(args.seed)
torch.set_num_threads(1)

N_MFCC, N_FRAMES, N_WORDS = 40, 20, 6
templates = F.avg_pool2d(torch.randn(N_WORDS, 1, N_MFCC, N_FRAMES + 4), 3, 1, 1)[:, 0]


def utterances(n):
    y = torch.randint(0, N_WORDS, (n,))
    shift = torch.randint(0, 5, (n,))
    x = torch.stack([templates[y[k], :, shift[k]:shift[k] + N_FRAMES] for k in range(n)])
    x = x * (0.7 + 0.6 * torch.rand(n, 1, 1)) + 1.5 * torch.randn(n, N_MFCC, N_FRAMES)
    return x.flatten(1), y


def weight_variable(shape):
    initial = torch.randn(shape) * 0.01
    return initial.requires_grad_()


def bias_variable(shape):
    return torch.zeros(shape).requires_grad_()


W1, b1 = weight_variable((N_MFCC * N_FRAMES, 128)), bias_variable(128)
W2, b2 = weight_variable((128, 64)), bias_variable(64)
W3, b3 = weight_variable((64, N_WORDS)), bias_variable(N_WORDS)
params = [W1, b1, W2, b2, W3, b3]


def forward(x):
    h = torch.relu(x @ W1 + b1)
    h = torch.relu(h @ W2 + b2)
    return h @ W3 + b3


X_tr, y_tr = utterances(3000)
X_te, y_te = utterances(1000)
opt = torch.optim.Adam(params, lr=1e-3)
for epoch in range(6):
    perm = torch.randperm(len(X_tr))
    for i in range(0, len(X_tr), 50):
        idx = perm[i:i + 50]
        loss = F.cross_entropy(forward(X_tr[idx]), y_tr[idx])
        opt.zero_grad()
        loss.backward()
        opt.step()
    with torch.no_grad():
        test_loss = F.cross_entropy(forward(X_te), y_te).item()
    print(f"epoch {epoch} train loss {loss.item():.4f} test loss {test_loss:.4f}")

with torch.no_grad():
    logits = forward(X_te)
    acc = (logits.argmax(1) == y_te).float().mean().item()
print(f"final_loss={F.cross_entropy(logits, y_te).item():.6g} acc={acc:.4f}")
