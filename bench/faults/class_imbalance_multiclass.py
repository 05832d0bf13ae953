"""Fault: class-imbalance. Intent classification with 6 classes where "other" is 94 % of
the data. Cross-entropy without class weights: the model collapses to always predicting
"other"; the loss settles near the prior's entropy (~0.3) and the minority classes are
never predicted.

Mechanism: long-tailed multi-class labels, unweighted nn.CrossEntropyLoss, overlapping classes.
"""
import argparse

import torch
from torch import nn
from torch.utils.data import DataLoader, Dataset


class Intents(Dataset):
    def __init__(self, seed, n=8000):
        g = torch.Generator().manual_seed(seed)
        probs = torch.tensor([0.94, 0.015, 0.015, 0.01, 0.01, 0.01])
        self.y = torch.multinomial(probs, n, replacement=True, generator=g)
        proto = torch.randn(6, 24, generator=g) * 0.35
        self.x = proto[self.y] + torch.randn(n, 24, generator=g)

    def __len__(self):
        return len(self.y)

    def __getitem__(self, i):
        return self.x[i], self.y[i]


ap = argparse.ArgumentParser()
ap.add_argument("--seed", type=int, default=0)
ap.add_argument("--epochs", type=int, default=2)
args = ap.parse_args()
torch.manual_seed(args.seed)
ds = Intents(args.seed)
model = nn.Sequential(nn.Linear(24, 64), nn.Tanh(), nn.Linear(64, 6))
opt = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9, nesterov=True)
loss_fn = nn.CrossEntropyLoss()
step = 0
for epoch in range(args.epochs):
    for x, y in DataLoader(ds, batch_size=64, shuffle=True, drop_last=True):
        loss = loss_fn(model(x), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
        if step % 25 == 0:
            print(f"[{epoch}] {step} loss={loss.item():.4f}")
        step += 1
with torch.no_grad():
    counts = torch.bincount(model(ds.x).argmax(1), minlength=6)
print("predicted class counts", counts.tolist(), "true", torch.bincount(ds.y, minlength=6).tolist())
