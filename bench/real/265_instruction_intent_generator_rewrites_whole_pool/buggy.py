"""Intent classifier for generated assistant instructions (bag of token embeddings + MLP, 6 intents)
trained on a synthetic instruction set produced by a generate-until-enough loop. Each round the
generator proposes 60 new instructions, appends them to its pool, and then writes the WHOLE pool to
the training file instead of only the new ones, until the file holds 2,400 rows. The file therefore
has the requested size but only about 480 distinct instructions, the early ones repeated up to nine
times; the classifier spends its epochs memorising the few early rows and generalises worse to
fresh instructions than the same budget spent on 2,400 distinct rows.

Source: https://github.com/instructlab/instructlab/issues/1003 (train dataset contains many duplicates of generated instructions)
Report: "InstructLab generated 100 new instructions for my skill, and a train dataset of 14,557
examples which contains all duplication of the 100 instructions ... it looks like many duplicates
are written to train while generate is looping and trying to get to 100 (default) instructions";
the maintainer adds "this was almost certainly a bug as the number of duplications was not
consistent or controllable ... instructions that were found early in training were duplicated more
then instructions that were found later." Reproduced with synthetic 14-token instructions (intent
keywords mixed with filler and 25% label noise), a writer that dumps the accumulated pool every
round, and the same 2,400-row / 8-epoch budget. The printed loss is the cross-entropy on 2,000
freshly generated instructions, `acc` the accuracy there.

expect: data-duplicates
symptom: final-loss-ratio 1.25
batch: 16
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

VOCAB, LEN, N_INTENT, TARGET_ROWS, PER_ROUND = 400, 14, 6, 2400, 60
keywords = torch.randperm(VOCAB)[: N_INTENT * 8].view(N_INTENT, 8)


def propose(n):
    y = torch.randint(0, N_INTENT, (n,))
    toks = torch.randint(0, VOCAB, (n, LEN))
    n_kw = torch.randint(1, 4, (n,))
    for i in range(n):
        pos = torch.randperm(LEN)[: n_kw[i]]
        toks[i, pos] = keywords[y[i], torch.randint(0, 8, (int(n_kw[i]),))]
    noisy = torch.rand(n) < 0.25
    y = torch.where(noisy, torch.randint(0, N_INTENT, (n,)), y)
    return toks, y


def generate_train_file():
    pool_x, pool_y, rows_x, rows_y, written = [], [], [], [], 0
    while written < TARGET_ROWS:
        x, y = propose(PER_ROUND)
        pool_x.append(x)
        pool_y.append(y)
        out_x, out_y = torch.cat(pool_x), torch.cat(pool_y)
        rows_x.append(out_x)
        rows_y.append(out_y)
        written += len(out_x)
    return torch.cat(rows_x)[:TARGET_ROWS], torch.cat(rows_y)[:TARGET_ROWS]


X_train, y_train = generate_train_file()
X_val, y_val = propose(2000)


class BagClassifier(nn.Module):
    def __init__(self):
        super().__init__()
        self.emb = nn.EmbeddingBag(VOCAB, 48, mode="mean")
        self.head = nn.Sequential(nn.Linear(48, 96), nn.ReLU(), nn.Linear(96, N_INTENT))

    def forward(self, toks):
        return self.head(self.emb(toks))


model = BagClassifier()
opt = torch.optim.Adam(model.parameters(), lr=1e-3)
loader = DataLoader(TensorDataset(X_train, y_train), batch_size=32, shuffle=True)

for epoch in range(8):
    model.train()
    for xb, yb in loader:
        loss = F.cross_entropy(model(xb), yb)
        opt.zero_grad()
        loss.backward()
        opt.step()
    model.eval()
    with torch.no_grad():
        logits = model(X_val)
        val_loss = F.cross_entropy(logits, y_val).item()
        acc = (logits.argmax(1) == y_val).float().mean().item()
    print(f"epoch {epoch} train {loss.item():.4f} val {val_loss:.4f} acc {acc:.3f}")

print(f"final_loss={val_loss:.6g} acc={acc:.4f}")
