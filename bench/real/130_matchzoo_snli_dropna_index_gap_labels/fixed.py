"""Sentence-pair NLI model -- fixed as the PR did: `reset_index` after `dropna`, so the table
index is 0..n-1 again and the consecutive pack ids look up their own labels (nothing else
changed).

Source: https://github.com/NTMC-Community/MatchZoo/pull/651 (Fix SNLI data loading index mismatch bug.)
Report / fix: "Cause: `dropna` creates index gaps in the data frame since some of the items are
removed, but `pack` generates ids consecutively and some ids might fall in the index gaps.
`reset_index` fills up the index gaps and fixes the bug" (closes MatchZoo#648). Reproduced with
MatchZoo's loading path in miniature, without pandas: a column table with an index (`load_snli`),
`dropna` that removes rows whose hypothesis is missing and keeps the surviving index labels,
`pack` that numbers the left / right texts 0..n-1 and takes each relation's label with a
label-based lookup `label_at(i)` on the table index (the next label where i falls in a gap); then a DataPack-style tensor conversion, a
shared-encoder matching model, CrossEntropyLoss, Adam, shuffled mini-batches. Data: 4,000
synthetic premise / hypothesis pairs (entailment = a sub-span of the premise, contradiction = the
premise with a negation token and a swapped word, neutral = unrelated words), 4 % of hypotheses
missing. The printed loss is the mean training loss of the last epoch, `acc` the accuracy on a
clean held-out set.

expect: label-misaligned
symptom: acc-below 0.5
batch: 7
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

VOCAB, NOT, PAD, L = 300, 1, 0, 14


def make_pair(label):
    premise = torch.randint(2, VOCAB, (int(torch.randint(8, L, (1,))),))
    if label == 0:  # entailment
        start = int(torch.randint(0, len(premise) - 4, (1,)))
        hyp = premise[start:start + int(torch.randint(3, 6, (1,)))].clone()
    elif label == 1:  # neutral
        hyp = torch.randint(2, VOCAB, (int(torch.randint(3, 7, (1,))),))
    else:  # contradiction
        start = int(torch.randint(0, len(premise) - 4, (1,)))
        hyp = torch.cat([torch.tensor([NOT]), premise[start:start + 4]])
        hyp[int(torch.randint(1, len(hyp), (1,)))] = int(torch.randint(2, VOCAB, (1,)))
    return premise, hyp


def load_snli(n, missing=0.0):
    table = {"index": [], "text_left": [], "text_right": [], "label": []}
    for i in range(n):
        y = int(torch.randint(0, 3, (1,)))
        p, h = make_pair(y)
        table["index"].append(i)
        table["text_left"].append(p)
        table["text_right"].append(None if torch.rand(1).item() < missing else h)
        table["label"].append(y)
    return table


def dropna(table):
    keep = [k for k, h in enumerate(table["text_right"]) if h is not None]
    return {col: [vals[k] for k in keep] for col, vals in table.items()}


def reset_index(table):
    return dict(table, index=list(range(len(table["index"]))))


def label_at(table, idx, pos):
    """.loc-style lookup by index label (falls back to the next existing label)."""
    while idx not in pos:
        idx += 1
    return table["label"][pos[idx]]


def pack(table):
    n = len(table["text_left"])
    left = {i: table["text_left"][i] for i in range(n)}
    right = {i: table["text_right"][i] for i in range(n)}
    pos = {lab: k for k, lab in enumerate(table["index"])}
    relation = [(i, i, label_at(table, i, pos)) for i in range(n)]
    return left, right, relation


def to_tensors(left, right, relation):
    def pad(seqs):
        out = torch.full((len(seqs), L), PAD)
        for k, s in enumerate(seqs):
            out[k, :len(s)] = s[:L]
        return out
    return (pad([left[a] for a, _, _ in relation]), pad([right[b] for _, b, _ in relation]),
            torch.tensor([y for _, _, y in relation]))


class MatchModel(nn.Module):
    def __init__(self, d=48):
        super().__init__()
        self.embed = nn.Embedding(VOCAB, d, padding_idx=PAD)
        self.encoder = nn.GRU(d, d, batch_first=True, bidirectional=True)
        self.mlp = nn.Sequential(nn.Linear(8 * d, 128), nn.ReLU(), nn.Linear(128, 3))

    def encode(self, ids):
        h, _ = self.encoder(self.embed(ids))
        return h.masked_fill(ids.eq(PAD).unsqueeze(-1), -1e4).max(1).values

    def forward(self, left, right):
        a, b = self.encode(left), self.encode(right)
        return self.mlp(torch.cat([a, b, (a - b).abs(), a * b], 1))


train_table = reset_index(dropna(load_snli(4000, missing=0.04)))
x_left, x_right, y = to_tensors(*pack(train_table))
t_left, t_right, t_y = to_tensors(*pack(load_snli(1000)))
model = MatchModel()
optimizer = torch.optim.Adam(model.parameters(), lr=2e-3)
for epoch in range(4):
    perm = torch.randperm(len(y))
    total, count = 0.0, 0
    for k in range(0, len(perm), 64):
        idx = perm[k:k + 64]
        loss = F.cross_entropy(model(x_left[idx], x_right[idx]), y[idx])
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        total, count = total + loss.item(), count + 1
    with torch.no_grad():
        acc = (model(t_left, t_right).argmax(1) == t_y).float().mean().item()
    print(f"epoch {epoch} loss {total / count:.4f} test_acc {acc:.4f}")
print(f"final_loss={total / count:.6g} acc={acc:.4f}")
