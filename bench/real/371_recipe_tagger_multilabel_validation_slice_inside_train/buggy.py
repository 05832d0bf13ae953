"""Multi-label recipe tagger: a recipe is a 300-d binary bag of ingredients and techniques, and an MLP (300 inputs, 256 ReLU units, 24 tag logits) is trained with per-tag BCE, Adam lr 2e-3, DataLoader batches of 64, 5 epochs, with the validation loss used to judge the model. The dataset helper cuts the training rows as the first 80% of the table and the validation rows as the first 20% -- `X[0 : int(0.2 * length)]` -- so every validation recipe is also a training recipe. The network is scored on examples it has fitted, including their noisy tags, and the validation loss looks far better than the model's real performance on unseen recipes.

Source: https://github.com/dhruvramani/C2AE-Multilabel-Classification/issues/7 (Validation data index is strange)
Report: "validation data X, Y is overlapped with train data X, Y. I think it should be modified as follow.
X, Y = X[0 : int(0.2 * length) , :], Y[0 : int(0.2 * length), :] => X, Y = X[int(0.8 * length) : length, :],
Y[int(0.8 * length) : length, :]" -- "I agree that the validation data should not overlap with training
data." Reproduced with 3,000 synthetic recipes (tags driven by sparse ingredient combinations, 10% of tag
entries flipped) and the model above. The printed loss is the validation BCE, `acc` the validation per-tag
accuracy.

expect: data-leakage
symptom: loss-below 0.46
batch: 22
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
    return X[0:int(0.2 * length)], Y[0:int(0.2 * length)]


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
