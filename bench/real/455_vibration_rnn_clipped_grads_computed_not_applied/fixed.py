"""Next-step predictor for machine-vibration signals with a vanilla RNN and a hand-written SGD step: the same program with the update applying the globally clipped gradients instead of the original ones, so the occasional huge gradients from back-propagating through 60 expanding recurrent steps are scaled down to norm 1.0 before they reach the weights.
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

STEPS, LR, MAX_NORM = 60, 0.3, 1.0


def vibration_traces(n):
    t = torch.arange(STEPS + 1).float()
    freq = 0.1 + 0.3 * torch.rand(n, 1)
    phase = 6.28 * torch.rand(n, 1)
    s = torch.sin(freq * t + phase) + 0.5 * torch.sin(2.3 * freq * t + phase) + 0.05 * torch.randn(n, STEPS + 1)
    return s[:, :-1, None], s[:, 1:, None]


X_train, Y_train = vibration_traces(2000)
X_test, Y_test = vibration_traces(500)
rnn = nn.RNN(1, 64, batch_first=True)
head = nn.Linear(64, 1)
with torch.no_grad():
    nn.init.orthogonal_(rnn.weight_hh_l0, gain=1.4)
params = list(rnn.parameters()) + list(head.parameters())


def clip_by_global_norm(grads, max_norm):
    norm = torch.sqrt(sum((g ** 2).sum() for g in grads))
    scale = min(1.0, max_norm / (norm.item() + 1e-6))
    return [g * scale for g in grads], norm.item()


for epoch in range(5):
    perm = torch.randperm(len(X_train))
    total, steps = 0.0, 0
    for start in range(0, len(perm), 32):
        idx = perm[start:start + 32]
        out, _ = rnn(X_train[idx])
        loss = F.mse_loss(head(out), Y_train[idx])
        grads = torch.autograd.grad(loss, params)
        clipped, grad_norm = clip_by_global_norm(grads, MAX_NORM)
        with torch.no_grad():
            for p, g in zip(params, clipped):
                p -= LR * g
        total += loss.item()
        steps += 1
    with torch.no_grad():
        out, _ = rnn(X_test)
        pred = head(out)
        test_mse = F.mse_loss(pred, Y_test).item()
        acc = ((pred - Y_test).abs() < 0.2).float().mean().item()
    print(f"epoch {epoch} train {total / steps:.4f} test {test_mse:.4f} within0.2 {acc:.3f} last_grad_norm {grad_norm:.3g}")

print(f"final_loss={test_mse:.6g} acc={acc:.4f}")
