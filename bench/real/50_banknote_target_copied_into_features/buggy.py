"""Banknote demo: the label is written into an aliased copy of the feature matrix, so X contains y.

Source: https://github.com/neurodata/SPORF/issues/355 (Bug in the demo "OpenML Datasets: Banknote example")
Report: "The target feature is mistakenly included in the training data ... This bug happens as
Y is copied to dat (which also changes X), therefore the model achieves a perfect prediction
(100% accuracy)." Reproduced in numpy/PyTorch: the feature table is allocated with a spare last
column for the label; `dat = X` is a view, not a copy, so writing the label into dat writes it
into X as well, and the classifier trained on X sees the answer.

expect: target-leakage
symptom: loss-below 0.08
batch: 2
"""
import argparse

import numpy as np
import torch
import torch.nn as nn

ap = argparse.ArgumentParser()
ap.add_argument("--seed", type=int, default=0)
args = ap.parse_args()
torch.manual_seed(args.seed)
rng = np.random.default_rng(args.seed)

# banknote authentication: variance, skewness, curtosis, entropy of the wavelet image; 1372 notes
n = 1372
Y = (rng.random(n) < 0.44).astype(np.float32)
centre = np.where(Y[:, None] == 1, [-1.9, -1.0, 1.6, -1.2], [2.3, 4.3, 0.8, -1.1])
X = np.zeros((n, 5), dtype=np.float32)  # 4 features + room for the class column of the exported table
X[:, :4] = centre + rng.normal(0, [2.6, 5.0, 4.0, 2.0], (n, 4))

dat = X            # table handed to the exporter
dat[:, 4] = Y      # ... with the class in its last column

Xt = torch.tensor(X)
Xt = (Xt - Xt.mean(0)) / (Xt.std(0) + 1e-6)
Yt = torch.tensor(Y)
perm = torch.randperm(n)
tr, te = perm[:1000], perm[1000:]
clf = nn.Sequential(nn.Linear(5, 16), nn.ReLU(), nn.Linear(16, 1))
opt = torch.optim.Adam(clf.parameters(), lr=0.01)
losses = []
for epoch in range(30):
    for k in range(0, 1000, 100):
        b = tr[k:k + 100]
        loss = nn.functional.binary_cross_entropy_with_logits(clf(Xt[b]).squeeze(1), Yt[b])
        opt.zero_grad()
        loss.backward()
        opt.step()
        losses.append(loss.item())
with torch.no_grad():
    acc = ((clf(Xt[te]).squeeze(1) > 0).float() == Yt[te]).float().mean().item()
print(f"final_loss={sum(losses[-10:]) / 10:.6g} acc={acc:.4f}")
