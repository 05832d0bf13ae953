"""Clothing-category classifier over product-photo descriptors (48 colour, texture and shape statistics per image, 8 garment categories), trained with a DataLoader for a fixed budget of 300 optimiser steps. The scraped image set contains the same photos many times -- a few dozen best-selling products were stored once per listing and per colour variant, byte-identical files under different names -- so about five rows in six are copies of 40 images. Sampling spends most of the step budget re-fitting those 40 photos and their product-specific look, and the classifier reaches unseen products noticeably worse than one trained on the de-duplicated set.

Source: https://github.com/MVC-Datasets/MVC/issues/4 (There are many duplicate images in the dataset)
Report: the reporter lists pairs of files with identical MD5 hashes, e.g. "a7ef5c263b97ccaa6ab5d6091d9a14cb
z/2/5/2/4/6/8/2524683-1-4x.jpg / a7ef5c263b97ccaa6ab5d6091d9a14cb z/2/5/2/4/7/0/2524703-1-4x.jpg",
across many products of the clothing dataset. Reproduced with 3,000 synthetic unique product photos
(category prototype signal, per-photo noise and a shared nonlinear mixing), to which 40 of them
are appended again 400 times each; an MLP 48-128-64-8, Adam lr 1e-3, DataLoader batches of 64 for a fixed 300
steps. The printed loss is the cross-entropy on 1,000 photos of unseen products, `acc` the
accuracy there.

expect: data-duplicates
symptom: final-loss-ratio 1.25
batch: 19
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

CATS, FEATS, STEPS = 8, 48, 300
prototype = torch.randn(CATS, FEATS)
mix = torch.randn(FEATS, FEATS) / FEATS ** 0.5


def photos(n):
    y = torch.randint(0, CATS, (n,))
    x = 0.5 * prototype[y] + 0.8 * torch.randn(n, FEATS)
    return x + 0.5 * torch.tanh(x @ mix), y


X, y = photos(3000)
copies = torch.randperm(3000)[:40].repeat_interleave(400)
X_all, y_all = torch.cat([X, X[copies]]), torch.cat([y, y[copies]])
X_test, y_test = photos(1000)
print(f"{len(X_all)} training rows")

model = nn.Sequential(nn.Linear(FEATS, 128), nn.ReLU(), nn.Linear(128, 64), nn.ReLU(), nn.Linear(64, CATS))
opt = torch.optim.Adam(model.parameters(), lr=1e-3)
loader = DataLoader(TensorDataset(X_all, y_all), batch_size=64, shuffle=True)

step = 0
while step < STEPS:
    for xb, yb in loader:
        loss = F.cross_entropy(model(xb), yb)
        opt.zero_grad()
        loss.backward()
        opt.step()
        step += 1
        if step % 50 == 0:
            with torch.no_grad():
                test_loss = F.cross_entropy(model(X_test), y_test).item()
            print(f"step {step} train {loss.item():.4f} test {test_loss:.4f}")
        if step == STEPS:
            break

with torch.no_grad():
    logits = model(X_test)
    test_loss = F.cross_entropy(logits, y_test).item()
    acc = (logits.argmax(1) == y_test).float().mean().item()
print(f"final_loss={test_loss:.6g} acc={acc:.4f}")
