"""Classifier two-sample test (C2ST) used to compare an approximate posterior with a reference posterior: samples of the 6 simulator parameters from both are z-scored with the mean and standard deviation of the reference samples, and an MLP (6 -> 32 ReLU -> 32 ReLU -> 2) is trained full-batch with Adam to tell them apart; its held-out accuracy is the test statistic (0.5 = indistinguishable). In this study one simulator parameter is held fixed, so that column is the same number in every sample. Its standard deviation is 0, the z-scoring divides 0 by 0, the column becomes NaN for every sample, and the classifier's loss is NaN from the first step -- the test reports nothing usable.

Source: https://github.com/sbi-dev/sbi/issues/1204 (c2st fails when one feature is constant)
Report: "Running `c2st`/`c2st_scores` with the default `z_scores=True` when at least one feature is
constant (all data points have the same value for this feature) fails with `ValueError: Input X contains
NaN` ... This is caused by dividing the data by the standard deviation of this feature (which is zero)" --
maintainer: "I suggest setting `std=1` when the feature is constant so that we are only shifting it to zero
in that case." Reproduced with 2,500 + 2,500 synthetic posterior samples (the approximate posterior is
slightly shifted and wider in three parameters; the fixed parameter is 0.7 in both), 100 full-batch Adam
steps on 70 % of the samples. The printed loss is the final training cross-entropy, `acc` the held-out C2ST
accuracy.

expect: constant-feature
symptom: nonfinite
batch: 23
"""
import argparse

import torch
import torch.nn as nn
import torch.nn.functional as F

ap = argparse.ArgumentParser()
ap.add_argument("--seed", type=int, default=0)
args = ap.parse_args()
torch.manual_seed(args.seed)
torch.set_num_threads(1)

N = 2500
reference = torch.randn(N, 6) * torch.tensor([1.0, 0.5, 2.0, 1.0, 0.3, 0.0]) + torch.tensor([0.0, 1.0, -2.0, 0.5, 0.2, 0.7])
approx = torch.randn(N, 6) * torch.tensor([1.8, 0.5, 2.0, 1.6, 0.3, 0.0]) + torch.tensor([1.0, 1.0, -0.5, 0.5, 0.2, 0.7])


def z_score(x, ref):
    mean, std = ref.mean(0), ref.std(0)
    return (x - mean) / std


X = torch.cat([z_score(reference, reference), z_score(approx, reference)])
y = torch.cat([torch.zeros(N), torch.ones(N)]).long()
perm = torch.randperm(2 * N)
tr, te = perm[:3500], perm[3500:]

clf = nn.Sequential(nn.Linear(6, 32), nn.ReLU(), nn.Linear(32, 32), nn.ReLU(), nn.Linear(32, 2))
opt = torch.optim.Adam(clf.parameters(), lr=3e-3)
for step in range(100):
    loss = F.cross_entropy(clf(X[tr]), y[tr])
    opt.zero_grad()
    loss.backward()
    opt.step()
    if step % 100 == 0:
        print(f"step {step}: loss {loss.item():.4f}")

with torch.no_grad():
    acc = (clf(X[te]).argmax(1) == y[te]).float().mean().item()
print(f"final_loss={loss.item():.6g} acc={acc:.4f}")
