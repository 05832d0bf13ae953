"""Rare-failure classifier on a maintenance table: three numeric sensor summaries and a status flag column per machine-week predict whether the machine fails (about 2% positives), a 4-32-1 MLP trained full-batch with binary cross-entropy and Adam. The status flag was filled in from the failure record itself, so it equals the target in every row: the network learns to read the answer off that column within a few dozen steps, and the held-out loss and accuracy look perfect while the sensor columns -- the only information available before a failure -- are hardly used.

Source: https://github.com/ItsAakif/Sciqus (notebook: problem identified -- target leakage)
Report: "Original Model Accuracy: 1.0 ... The accuracy looks extremely high, which immediately raises
suspicion. After reviewing the data generation code, I found the issue: feature_4 is identical to the
target variable. This is called target leakage." (6,000 rows, 120 positives, features feature_1..feature_3
plus feature_4 = y). Reproduced with 6,000 synthetic machine-weeks (2% failures; a failure shifts each of the
three sensor readings by 2-2.5 standard deviations), the flag column equal to the label, standardised inputs, 200 full-batch Adam
steps at lr 0.01. The printed loss is the cross-entropy on 1,200 held-out rows, `acc` the balanced
accuracy there.

expect: target-leakage
symptom: loss-below 0.005
batch: 21
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

N = 6000
failed = torch.zeros(N)
failed[torch.randperm(N)[:120]] = 1.0
vibration = 50 + 10 * torch.randn(N) + 25 * failed
temperature = 30 + 5 * torch.randn(N) + 12 * failed
load = 100 + 20 * torch.randn(N) + 45 * failed
status_flag = failed.clone()
table = torch.stack([vibration, temperature, load, status_flag], 1)
feature_columns = [0, 1, 2, 3]

X = table[:, feature_columns]
X = (X - X.mean(0)) / X.std(0)
order = torch.randperm(N)
train, test = order[:4800], order[4800:]

model = nn.Sequential(nn.Linear(X.shape[1], 32), nn.ReLU(), nn.Linear(32, 1))
opt = torch.optim.Adam(model.parameters(), lr=0.01)
for step in range(200):
    loss = F.binary_cross_entropy_with_logits(model(X[train]).squeeze(1), failed[train])
    opt.zero_grad()
    loss.backward()
    opt.step()
    if step % 50 == 49:
        with torch.no_grad():
            logits = model(X[test]).squeeze(1)
            test_loss = F.binary_cross_entropy_with_logits(logits, failed[test]).item()
            pred = (logits > 0).float()
            y = failed[test]
            recall_pos = (pred[y == 1] == 1).float().mean().item()
            recall_neg = (pred[y == 0] == 0).float().mean().item()
            balanced = 0.5 * (recall_pos + recall_neg)
        print(f"step {step} train {loss.item():.4f} test {test_loss:.4f} balanced acc {balanced:.3f}")

print(f"final_loss={test_loss:.6g} acc={balanced:.4f}")
