"""Vibration next-sample RNN forecaster -- fixed as the answer recommends: the gradient norm is
clipped at 0.25 after each backward pass, so a rare spike can no longer throw the recurrent weights
away (nothing else changed).
"""
import argparse

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset

ap = argparse.ArgumentParser()
ap.add_argument("--seed", type=int, default=0)
args = ap.parse_args()
torch.manual_seed(args.seed)
torch.set_num_threads(1)

T = 80


def traces(n):
    t = torch.arange(T + 1).float()[None, :]
    freq = 0.1 + 0.3 * torch.rand(n, 1)
    phase = 6.28 * torch.rand(n, 1)
    s = torch.sin(freq * t + phase) * (1 + torch.rand(n, 1)) + 0.05 * torch.randn(n, T + 1)
    return s[:, :-1, None], s[:, 1:, None]


class Forecaster(nn.Module):
    def __init__(self):
        super().__init__()
        self.rnn = nn.RNN(1, 64, batch_first=True)
        self.out = nn.Linear(64, 1)

    def forward(self, x):
        h, _ = self.rnn(x)
        return self.out(h)


train_x, train_y = traces(2000)
test_x, test_y = traces(300)
model = Forecaster()
opt = torch.optim.SGD(model.parameters(), lr=0.3, momentum=0.9)
loader = DataLoader(TensorDataset(train_x, train_y), batch_size=32, shuffle=True)

for epoch in range(10):
    total = 0.0
    for xb, yb in loader:
        loss = F.mse_loss(model(xb), yb)
        opt.zero_grad()
        loss.backward()
        nn.utils.clip_grad_norm_(model.parameters(), 0.25)
        opt.step()
        total += loss.item() * len(xb)
    train_loss = total / len(train_x)
    print(f"epoch {epoch} mse {train_loss:.5f}")

with torch.no_grad():
    acc = 1 - F.mse_loss(model(test_x), test_y).item() / test_y.var().item()
print(f"final_loss={train_loss:.6g} acc={acc:.4f}")
