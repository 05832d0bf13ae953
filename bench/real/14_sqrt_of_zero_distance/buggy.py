"""Embedding loss with a hand-written Euclidean distance: sqrt(0) has an infinite gradient.

Source: https://github.com/pytorch/pytorch/issues/2421 (Gradient of zero norm is nan)
Report: "If a norm is zero, its gradient returns nan ... that will propagate to make all updates
nan"; the 2-norm's square root has an infinite gradient at 0 and 0 * inf = NaN. Workaround in
the thread: add a small epsilon. Reproduced with a metric-learning loss whose batches contain
pairs of the same item (distance exactly 0).

expect: unstable-op
symptom: nonfinite
"""
import argparse

import torch
import torch.nn as nn

ap = argparse.ArgumentParser()
ap.add_argument("--seed", type=int, default=0)
args = ap.parse_args()
torch.manual_seed(args.seed)

items = torch.randn(500, 16)
group = torch.randint(0, 10, (500,))
encoder = nn.Sequential(nn.Linear(16, 32), nn.ReLU(), nn.Linear(32, 8))
opt = torch.optim.SGD(encoder.parameters(), lr=0.05)


def distance(a, b):
    return ((a - b) ** 2).sum(dim=1).sqrt()


losses = []
for step in range(200):
    i = torch.randint(0, 500, (64,))
    j = torch.randint(0, 500, (64,))
    j[:4] = i[:4]  # sampling with replacement: some pairs are the same item
    za, zb = encoder(items[i]), encoder(items[j])
    same = (group[i] == group[j]).float()
    d = distance(za, zb)
    loss = (same * d ** 2 + (1 - same) * torch.clamp(1.0 - d, min=0) ** 2).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
    losses.append(loss.item())
print(f"final_loss={sum(losses[-10:]) / 10:.6g} acc={0.0:.4f}")
