"""Fault: label-misaligned. The labels were shuffled independently of the inputs: the
script loads features and labels from two "files" and applies the train/val shuffle
permutation to the features only. Nothing links x to y any more; the training loss sits
at log(10) ~ 2.30 and the validation loss does not improve.

Mechanism: a permutation applied to X but not to y.
"""
import argparse

import torch
from torch import nn
from torch.utils.data import DataLoader, TensorDataset

ap = argparse.ArgumentParser()
ap.add_argument("--seed", type=int, default=0)
ap.add_argument("--epochs", type=int, default=4)
a = ap.parse_args()
torch.manual_seed(a.seed)

# 10 Gaussian clusters in 32-d: an easy problem when labels match inputs
centers = torch.randn(10, 32) * 2.0
labels = torch.randint(0, 10, (6000,))
features = centers[labels] + torch.randn(6000, 32)

perm = torch.randperm(6000)
features = features[perm]            # BUG: labels = labels[perm] was forgotten
train = TensorDataset(features[:5000], labels[:5000])
val_x, val_y = features[5000:], labels[5000:]

model = nn.Sequential(nn.Linear(32, 128), nn.ReLU(), nn.Linear(128, 128), nn.ReLU(), nn.Linear(128, 10))
opt = torch.optim.AdamW(model.parameters(), lr=1e-3, weight_decay=1e-2)
crit = nn.CrossEntropyLoss()
step = 0
for ep in range(a.epochs):
    model.train()
    for x, y in DataLoader(train, batch_size=64, shuffle=True):
        loss = crit(model(x), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
        if step % 25 == 0:
            print(f"step {step} train loss {loss.item():.4f}")
        step += 1
    model.eval()
    with torch.no_grad():
        out = model(val_x)
        vl = crit(out, val_y)
        acc = (out.argmax(1) == val_y).float().mean()
    print(f"epoch {ep} val loss {vl.item():.4f} val acc {acc.item():.3f}")
