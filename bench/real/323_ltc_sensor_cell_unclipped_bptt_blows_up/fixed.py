"""Continuous-time recurrent classifier for accelerometer gestures: a liquid-time-constant style cell integrated with explicit Euler sub-steps, a linear head over 4 gestures, trained with SGD + momentum through the fully unrolled sequence.

Fixed: the gradient norm is clipped to 0.5 before every optimiser step, so a single explosive
batch can no longer throw the recurrent weights out of range.
"""
import argparse
import math

import torch
import torch.nn as nn
import torch.nn.functional as F

ap = argparse.ArgumentParser()
ap.add_argument("--seed", type=int, default=0)
args = ap.parse_args()
torch.manual_seed(args.seed)
torch.set_num_threads(1)

T, AXES, GESTURES, HIDDEN, SUBSTEPS, DT = 60, 3, 4, 32, 4, 0.25
freq = torch.tensor([0.5, 1.0, 1.5, 2.0])
t = torch.arange(T).float() / 10


def gestures(n):
    y = torch.randint(0, GESTURES, (n,))
    phase = 2 * math.pi * torch.rand(n, 1)
    axis_gain = torch.stack([torch.ones(n), 0.5 * (y % 2), 0.5 * (y // 2)], 1)
    wave = torch.sin(2 * math.pi * freq[y, None] * t + phase)
    x = wave[:, :, None] * axis_gain[:, None, :] + 0.3 * torch.randn(n, T, AXES)
    return x, y


class LTCCell(nn.Module):
    def __init__(self):
        super().__init__()
        self.W = nn.Parameter(torch.randn(HIDDEN, HIDDEN) * 0.8 / math.sqrt(HIDDEN))
        self.U = nn.Parameter(torch.randn(AXES, HIDDEN) * 0.5)
        self.b = nn.Parameter(torch.zeros(HIDDEN))
        self.log_tau = nn.Parameter(torch.zeros(HIDDEN))

    def forward(self, x):
        h = torch.zeros(x.shape[0], HIDDEN)
        tau = F.softplus(self.log_tau) + 0.5
        for step in range(x.shape[1]):
            drive = x[:, step] @ self.U + self.b
            for _ in range(SUBSTEPS):
                h = h + DT * (-h / tau + torch.relu(h @ self.W + drive))
        return h


class GestureNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.cell = LTCCell()
        self.head = nn.Linear(HIDDEN, GESTURES)

    def forward(self, x):
        return self.head(self.cell(x))


X_train, y_train = gestures(1600)
X_test, y_test = gestures(400)
model = GestureNet()
opt = torch.optim.SGD(model.parameters(), lr=0.005, momentum=0.9)

for epoch in range(8):
    order = torch.randperm(len(X_train))
    for s in range(0, len(order), 32):
        idx = order[s:s + 32]
        loss = F.cross_entropy(model(X_train[idx]), y_train[idx])
        opt.zero_grad()
        loss.backward()
        torch.nn.utils.clip_grad_norm_(model.parameters(), 0.5)
        opt.step()
    with torch.no_grad():
        logits = model(X_test)
        test_loss = F.cross_entropy(logits, y_test).item()
        acc = (logits.argmax(1) == y_test).float().mean().item()
    print(f"epoch {epoch} train {loss.item():.4f} test {test_loss:.4f} acc {acc:.3f}")

print(f"final_loss={test_loss:.6g} acc={acc:.4f}")
