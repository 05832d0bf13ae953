"""Fault: dataloader-bottleneck. Each sample is "read from remote storage" (simulated
with a 2 ms blocking read per item) inside __getitem__, num_workers=0: a batch of 16
waits ~30 ms for I/O while the forward and backward take a few ms.

Mechanism: blocking per-sample I/O in the main process, no worker processes.
"""
import argparse
import time

import torch
from torch import nn
from torch.utils.data import DataLoader, Dataset


class Remote(Dataset):
    def __init__(self, n):
        self.x = torch.randn(n, 16)
        self.y = (self.x[:, 0] > 0).long()

    def __len__(self):
        return len(self.y)

    def __getitem__(self, i):
        time.sleep(0.002)  # the blob-store round trip
        return self.x[i], self.y[i]


ap = argparse.ArgumentParser()
ap.add_argument("--seed", type=int, default=0)
args = ap.parse_args()
torch.manual_seed(args.seed)
model = nn.Sequential(nn.Linear(16, 32), nn.ReLU(), nn.Linear(32, 2))
opt = torch.optim.Adam(model.parameters(), lr=1e-3)
for x, y in DataLoader(Remote(2400), batch_size=16, shuffle=True):
    loss = nn.functional.cross_entropy(model(x), y)
    opt.zero_grad()
    loss.backward()
    opt.step()
