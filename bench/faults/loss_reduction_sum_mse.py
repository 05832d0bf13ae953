"""Fault: loss-reduction. nn.MSELoss(reduction="sum") over a batch of 256 with SGD at
lr=0.01, a learning rate that is fine for the mean loss. The gradient is 256x larger
than intended, so the effective learning rate is 2.56: the loss oscillates wildly and
blows up.

Mechanism: summed instead of averaged loss, gradient scales with batch size.
"""
import argparse

import torch
from torch import nn
from torch.utils.data import DataLoader, TensorDataset

ap = argparse.ArgumentParser()
ap.add_argument("--seed", type=int, default=0)
ap.add_argument("--epochs", type=int, default=4)
ap.add_argument("--batch-size", type=int, default=256)
a = ap.parse_args()
torch.manual_seed(a.seed)
X = torch.randn(8192, 16)
Y = torch.sin(X[:, :4]).sum(1, keepdim=True) + 0.1 * torch.randn(8192, 1)
net = nn.Sequential(nn.Linear(16, 64), nn.ReLU(), nn.Linear(64, 1))
opt = torch.optim.SGD(net.parameters(), lr=0.01)
crit = nn.MSELoss(reduction="sum")
step = 0
for ep in range(a.epochs):
    for x, y in DataLoader(TensorDataset(X, Y), batch_size=a.batch_size, shuffle=True):
        loss = crit(net(x), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
        if step % 8 == 0:
            print(f"step {step} loss {loss.item():.4g} (per sample {loss.item() / len(x):.4g})")
        step += 1
