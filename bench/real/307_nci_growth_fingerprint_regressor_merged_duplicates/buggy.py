"""Multitask growth-inhibition regressor on binary molecular fingerprints (NCI-60 style: one compound, 8 cell-line responses), an MLP trained full-batch with Adam on MSE. The compound table was assembled by concatenating several screening exports, and the same compounds re-appear across exports: 150 compounds occur 61 times each, so nearly two rows in three are repeats. Full-batch training then weighs those 150 compounds dozens of times more than the rest, the fit bends towards them, and the held-out error on new compounds ends clearly worse than with one row per compound.

Source: https://github.com/deepchem/deepchem/issues/971 (Duplicates in datasets)
Report: "it looks like some datasets include duplicates of chemicals. We are working on merging the
duplicates and updating all online datasets and model performances." (the NCI set was re-released as
nci_unique.csv, "which no longer include duplicate samples", deepchem PR #347). Reproduced with
5,000 unique synthetic compounds (256-bit fingerprints, responses from sparse substructure effects
plus interactions and noise) to which 150 compounds are appended 60 more times each; an MLP
256-128-8, Adam lr 1e-3 with weight decay 1e-4, 100 full-batch steps. The printed loss is the MSE
on 1,000 unseen compounds, `acc` the mean Pearson correlation across the 8 cell lines there.

expect: data-duplicates
symptom: final-loss-ratio 1.15
batch: 18
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

BITS, LINES = 256, 8
effects = torch.randn(BITS, LINES) * (torch.rand(BITS, 1) < 0.15).float()
pairs = torch.randint(0, BITS, (40, 2))
pair_fx = torch.randn(40, LINES)


def compounds(n):
    fp = (torch.rand(n, BITS) < 0.12).float()
    y = fp @ effects / 3 + (fp[:, pairs[:, 0]] * fp[:, pairs[:, 1]]) @ pair_fx
    return fp, y + 0.3 * torch.randn(n, LINES)


def merge_exports(fp, y):
    again = torch.randperm(len(fp))[:150]
    return torch.cat([fp, fp[again].repeat(60, 1)]), torch.cat([y, y[again].repeat(60, 1)])


fp_unique, y_unique = compounds(5000)
fp_train, y_train = merge_exports(fp_unique, y_unique)
fp_test, y_test = compounds(1000)
y_mu, y_sd = y_train.mean(0), y_train.std(0)

model = nn.Sequential(nn.Linear(BITS, 128), nn.ReLU(), nn.Linear(128, LINES))
opt = torch.optim.Adam(model.parameters(), lr=1e-3, weight_decay=1e-4)
print(f"{len(fp_train)} rows")


def evaluate():
    with torch.no_grad():
        pred = model(fp_test) * y_sd + y_mu
        mse = F.mse_loss(pred, y_test).item()
        pc = pred - pred.mean(0)
        tc = y_test - y_test.mean(0)
        r = ((pc * tc).sum(0) / (pc.norm(dim=0) * tc.norm(dim=0))).mean().item()
    return mse, r


for step in range(100):
    loss = F.mse_loss(model(fp_train), (y_train - y_mu) / y_sd)
    opt.zero_grad()
    loss.backward()
    opt.step()
    if step % 20 == 19:
        mse, r = evaluate()
        print(f"step {step + 1} train {loss.item():.4f} test_mse {mse:.4f} pearson {r:.4f}")

mse, r = evaluate()
print(f"final_loss={mse:.6g} acc={r:.4f}")
