"""Restaurant-inspection risk classifier fed the violation description, which determines the risk
category: training reaches ~100 % accuracy and near-zero loss by reading the label off an input.

Source: https://github.com/dotnet/docs/issues/17721 (mlnet auto-train gets to 100% accuracy)
Report: the ML.NET multiclass sample on the SF "Restaurant Scores" data gets 100 % accuracy.
Maintainer: "Generally if you're getting 100% accuracy, you're either leaking, have too small of
dataset ... or the task is trivial. In this case the dataset itself is leaking information ...
The `violation_description` column perfectly predicts the label, `risk_category`, as it's the
risk category of the given violation." Reproduced as the AutoML run did it -- text columns
featurized into a bag of words, numeric columns concatenated, a linear maximum-entropy
(softmax) classifier -- in plain torch (Adam 1e-2, mini-batches of 256) on synthetic inspection
rows: inspection score, inspection type, business type and a violation description drawn from
60 violation kinds, each of which belongs to one fixed risk category (Low/Moderate/High);
the score and type are only loosely related to the risk. The final loss is the training
cross-entropy, `acc` the held-out accuracy.

expect: target-leakage
symptom: loss-below 0.2
batch: 4
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

N_KINDS, VOCAB = 60, 300
kind_risk = torch.randint(0, 3, (N_KINDS,))                     # each violation kind has one risk
kind_words = torch.randint(0, VOCAB, (N_KINDS, 6))              # its description: 6 words


def inspections(n):
    kind = torch.randint(0, N_KINDS, (n,))
    risk = kind_risk[kind]
    score = (92 - 6 * risk + 7 * torch.randn(n)).clamp(50, 100)  # worse risk, lower score (noisy)
    insp_type = torch.where(torch.rand(n) < 0.3 + 0.15 * risk, 1, 0)  # complaint vs routine
    biz_type = torch.randint(0, 8, (n,))
    return kind, score, insp_type, biz_type, risk


def featurize(kind, score, insp_type, biz_type, use_description=True):
    cols = [((score - 85) / 10).unsqueeze(1), F.one_hot(insp_type, 2).float(), F.one_hot(biz_type, 8).float()]
    if use_description:
        bow = torch.zeros(len(kind), VOCAB)
        bow.scatter_(1, kind_words[kind], 1.0)                   # violation_description -> bag of words
        cols.append(bow)
    return torch.cat(cols, 1)


USE_DESCRIPTION = True
*train_cols, train_y = inspections(8000)
*test_cols, test_y = inspections(2000)
x_train = featurize(*train_cols, use_description=USE_DESCRIPTION)
x_test = featurize(*test_cols, use_description=USE_DESCRIPTION)

model = nn.Linear(x_train.shape[1], 3)                           # maximum-entropy classifier
optimizer = torch.optim.Adam(model.parameters(), lr=1e-2)
losses = []
for epoch in range(15):
    perm = torch.randperm(len(x_train))
    for i in range(0, len(perm), 256):
        idx = perm[i:i + 256]
        loss = F.cross_entropy(model(x_train[idx]), train_y[idx])
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        losses.append(loss.item())
    print(f"epoch {epoch} loss {sum(losses[-32:]) / 32:.4f}")

with torch.no_grad():
    acc = (model(x_test).argmax(1) == test_y).float().mean().item()
print(f"final_loss={sum(losses[-20:]) / 20:.6g} acc={acc:.4f}")
