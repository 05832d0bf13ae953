"""Fault: unstable-op. A classifier whose softmax cross-entropy is written by hand,
probs = exp(logits) / exp(logits).sum(), without subtracting the row max (the log-sum-exp
trick). The problem is easy, the model grows confident and its logits keep growing;
once one passes 88.7, exp overflows float32 to inf and inf / inf = NaN.

Mechanism: exp overflow in a hand-written softmax as logits grow during training.
"""
import argparse

import torch
import torch.nn as nn


def softmax_xent(logits, target):
    e = torch.exp(logits)                           # no max subtraction
    probs = e / e.sum(dim=1, keepdim=True)
    return -torch.log(probs[torch.arange(len(target)), target]).mean()


ap = argparse.ArgumentParser()
ap.add_argument("--seed", type=int, default=0)
ap.add_argument("--steps", type=int, default=600)
a = ap.parse_args()
torch.manual_seed(a.seed)
x = torch.randn(4000, 12)
y = (x[:, 0] > 0).long() * 2 + (x[:, 1] > 0).long()    # quadrant: 4 classes
x[:, :2] *= 6.0
model = nn.Sequential(nn.Linear(12, 64), nn.ReLU(), nn.Linear(64, 4))
opt = torch.optim.Adam(model.parameters(), lr=1e-2)
first_bad = None
for step in range(a.steps):
    i = torch.randint(0, 4000, (200,))
    logits = model(x[i])
    loss = softmax_xent(logits, y[i])
    opt.zero_grad()
    loss.backward()
    opt.step()
    if step % 25 == 0 or (first_bad is None and not torch.isfinite(loss)):
        if not torch.isfinite(loss):
            first_bad = step
        print(f"step {step} loss {loss.item():.4f} max logit {logits.max().item():.1f}")
