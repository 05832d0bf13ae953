"""Hand-written 43-20-1 quality-score regressor -- fixed as the answers to the question advise for a regression
target: the output unit is linear (identity) instead of a sigmoid, so it can reach scores between 0 and 100 and its
gradient does not vanish (nothing else changed).
"""
import argparse

import torch

ap = argparse.ArgumentParser()
ap.add_argument("--seed", type=int, default=0)
args = ap.parse_args()
torch.manual_seed(args.seed)
torch.set_num_threads(1)

N_FEAT, N_HID, LR, EPOCHS, BS = 43, 20, 0.01, 30, 32
proj = torch.randn(N_FEAT, 3) / N_FEAT ** 0.5


def make(n):
    x = torch.randn(n, N_FEAT)
    z = x @ proj
    score = 52 + 22 * torch.tanh(z[:, 0]) + 12 * torch.sin(z[:, 1]) + 8 * z[:, 2] + 2 * torch.randn(n)
    return torch.cat([x, torch.ones(n, 1)], 1), score.clamp(0, 100).unsqueeze(1)


def output_activation(a):
    return a


X, y = make(3000)
X_te, y_te = make(1000)
W_ij = (torch.randn(N_FEAT + 1, N_HID) * 0.1).requires_grad_()
W_jk = (torch.randn(N_HID + 1, 1) * 0.1).requires_grad_()


def forward(x):
    hidden = torch.sigmoid(x @ W_ij)
    hidden = torch.cat([hidden, torch.ones(len(x), 1)], 1)
    return output_activation(hidden @ W_jk)


for epoch in range(EPOCHS):
    perm = torch.randperm(len(X))
    total = 0.0
    for i in range(0, len(X), BS):
        idx = perm[i:i + BS]
        out = forward(X[idx])
        loss = ((out - y[idx]) ** 2).mean()
        loss.backward()
        with torch.no_grad():
            for w in (W_ij, W_jk):
                w -= LR * w.grad
                w.grad.zero_()
        total += loss.item() * len(idx)
    if epoch % 5 == 0:
        print(f"epoch {epoch} train mse {total / len(X):.2f} sample out {out[:3, 0].tolist()}")

with torch.no_grad():
    pred = forward(X_te)
    mse = ((pred - y_te) ** 2).mean().item()
    within = ((pred - y_te).abs() < 10).float().mean().item()
print(f"final_loss={mse:.6g} acc={within:.4f}")
