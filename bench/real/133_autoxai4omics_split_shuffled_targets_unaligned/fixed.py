"""Omics sample classifier -- fixed as the PR did: the targets are taken with the same (reset)
row index as the features after the shuffled split, so every row keeps its own label (nothing
else changed).

Source: https://github.com/IBM/AutoXAI4Omics/pull/58 (Fix shuffle misalignment)
Report / fix: "fixes an index misalignment bug where the target column ... could become out of
sync with condition_binary (original target) in the metadata after shuffling/splitting.
Changes: autoxai4omics/utils/ml/data_split.py -- Reset indices after train/test split to ensure
targets remain correctly aligned with features and metadata ... preventing downstream errors and
misaligned labels." Reproduced with that pipeline's steps in plain torch (a samples x features
table keyed by SampleID, a metadata table with `condition_binary`, a stratified shuffled split
that returns the shuffled feature rows, the target then taken positionally from the metadata in
its stored order, standard scaling, and the tabauto Keras-style model: Dense-ReLU-Dropout
blocks, sigmoid output, binary cross-entropy, Adam, mini-batches) on 600 synthetic microbiome-like
samples (300 taxa, log1p counts from a negative-binomial-like model with 25 taxa shifted in the
"disease" condition). The printed loss is the mean training loss of the last epoch, `acc` the
test accuracy against the test samples' own labels.

expect: label-misaligned
symptom: acc-below 0.75
batch: 7
"""
import argparse

import torch
import torch.nn as nn

ap = argparse.ArgumentParser()
ap.add_argument("--seed", type=int, default=0)
args = ap.parse_args()
torch.manual_seed(args.seed)
torch.set_num_threads(1)

N, TAXA = 600, 300


def load_omics():
    sample_ids = [f"S{k:04d}" for k in range(N)]
    condition = (torch.rand(N) < 0.45).long()
    base_rate = torch.exp(torch.randn(TAXA) * 1.2 + 1.0)
    effect = torch.zeros(TAXA)
    effect[torch.randperm(TAXA)[:25]] = torch.randn(25).sign() * 1.0
    rate = base_rate * torch.exp(condition.unsqueeze(1) * effect + 0.5 * torch.randn(N, TAXA))
    counts = torch.poisson(rate)
    features = {"SampleID": sample_ids, "X": torch.log1p(counts)}
    metadata = {"SampleID": list(sample_ids), "condition_binary": condition}
    return features, metadata


def strat_split(features, metadata, test_size=0.25):
    y_all = metadata["condition_binary"]
    train_rows, test_rows = [], []
    for c in (0, 1):
        rows = torch.nonzero(y_all == c).squeeze(1)
        rows = rows[torch.randperm(len(rows))]
        k = int(len(rows) * test_size)
        test_rows.append(rows[:k])
        train_rows.append(rows[k:])
    train_rows = torch.cat(train_rows)[torch.randperm(sum(len(r) for r in train_rows))]
    test_rows = torch.cat(test_rows)
    x_train, x_test = features["X"][train_rows], features["X"][test_rows]
    # targets: aligned with the split's rows
    y_train = y_all[train_rows]
    y_test_true = y_all[test_rows]
    return x_train, x_test, y_train, y_test_true


features, metadata = load_omics()
x_train, x_test, y_train, y_test = strat_split(features, metadata)
mean, std = x_train.mean(0), x_train.std(0) + 1e-6
x_train, x_test = (x_train - mean) / std, (x_test - mean) / std

model = nn.Sequential(nn.Linear(TAXA, 128), nn.ReLU(), nn.Dropout(0.3),
                      nn.Linear(128, 64), nn.ReLU(), nn.Dropout(0.3), nn.Linear(64, 1), nn.Sigmoid())
optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
criterion = nn.BCELoss()
for epoch in range(30):
    model.train()
    perm = torch.randperm(len(x_train))
    total = 0.0
    for k in range(0, len(perm), 32):
        idx = perm[k:k + 32]
        loss = criterion(model(x_train[idx]).squeeze(1), y_train[idx].float())
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        total += loss.item() * len(idx)
    if epoch % 10 == 0:
        print(f"epoch {epoch} loss {total / len(perm):.4f}")

model.eval()
with torch.no_grad():
    acc = ((model(x_test).squeeze(1) > 0.5).long() == y_test).float().mean().item()
print(f"final_loss={total / len(perm):.6g} acc={acc:.4f}")
