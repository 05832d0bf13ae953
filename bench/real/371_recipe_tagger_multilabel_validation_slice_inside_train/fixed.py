"""Multi-label recipe tagger -- fixed as the report proposes: the validation rows are the last 20% of the
table (`X[int(0.8 * length) : length]`), disjoint from the training rows, so the validation loss measures
unseen recipes (nothing else changed).
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

FEATURES, TAGS, N = 300, 24, 3000
tag_w = torch.randn(FEATURES, TAGS) * (torch.rand(FEATURES, TAGS) < 0.05)


def make_recipes(n):
    x = (torch.rand(n, FEATURES) < 0.06).float()
    y = ((x @ tag_w + 0.3 * torch.randn(n, TAGS)) > 0.4).float()
    flip = torch.rand(n, TAGS) < 0.10
    return x, torch.where(flip, 1 - y, y)


def split(X, Y, part):
    length = len(X)
    if part == "train":
        return X[0:int(0.8 * length)], Y[0:int(0.8 * length)]
    return X[int(0.8 * length):length], Y[int(0.8 * length):length]


X, Y = make_recipes(N)
X_train, Y_train = split(X, Y, "train")
X_val, Y_val = split(X, Y, "val")
loader = DataLoader(TensorDataset(X_train, Y_train), batch_size=64, shuffle=True)
model = nn.Sequential(nn.Linear(FEATURES, 256), nn.ReLU(), nn.Linear(256, TAGS))
opt = torch.optim.Adam(model.parameters(), lr=2e-3)

for epoch in range(5):
    for xb, yb in loader:
        loss = F.binary_cross_entropy_with_logits(model(xb), yb)
        opt.zero_grad()
        loss.backward()
        opt.step()
    with torch.no_grad():
        val = F.binary_cross_entropy_with_logits(model(X_val), Y_val).item()
    print(f"epoch {epoch} train loss {loss.item():.4f} val loss {val:.4f}")

with torch.no_grad():
    logits = model(X_val)
    val_loss = F.binary_cross_entropy_with_logits(logits, Y_val).item()
    acc = ((logits > 0).float() == Y_val).float().mean().item()
print(f"final_loss={val_loss:.6g} acc={acc:.4f}")
