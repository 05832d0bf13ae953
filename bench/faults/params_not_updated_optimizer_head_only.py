"""Fault: params-not-updated. The optimizer is built from model.head.parameters() only
(copied from a fine-tuning script where the backbone was pretrained), but here the
backbone is randomly initialised: it never changes, and the head alone, on top of
random features, cannot fit the task. The loss falls a little and stalls.

Mechanism: most trainable parameters are left out of the optimizer.
"""
import argparse

import torch
from torch import nn

ap = argparse.ArgumentParser()
ap.add_argument("--seed", type=int, default=0)
ap.add_argument("--steps", type=int, default=300)
args = ap.parse_args()
torch.manual_seed(args.seed)


class Model(nn.Module):
    def __init__(self):
        super().__init__()
        self.backbone = nn.Sequential(nn.Linear(32, 128), nn.ReLU(), nn.Linear(128, 16), nn.ReLU())
        self.head = nn.Linear(16, 8)

    def forward(self, x):
        return self.head(self.backbone(x))


X = torch.randn(8000, 32)
y = (X[:, :8] * X[:, 8:16]).argmax(1)
model = Model()
opt = torch.optim.Adam(model.head.parameters(), lr=3e-3)
for step in range(args.steps):
    idx = torch.randint(0, len(X), (64,))
    loss = nn.functional.cross_entropy(model(X[idx]), y[idx])
    opt.zero_grad()
    loss.backward()
    opt.step()
