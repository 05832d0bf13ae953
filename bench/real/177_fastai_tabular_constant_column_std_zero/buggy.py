"""Tabular classifier in the fastai v1 style (categorical embeddings plus normalised continuous columns, batch-norm, two linear-ReLU-BN blocks, cross-entropy, Adam) for a process-monitoring table in which one continuous column -- the ambient temperature of a climate-controlled line -- has the same value in every training row: the dataset normalises every continuous column with (x - mean) / std, that column becomes 0/0 = NaN, and the first forward pass turns the loss and then every weight into NaN.

Source: https://github.com/fastai/fastai/issues/889 (Normalization for tabulardata produces nan for constant columns)
Report: "While creating a TabularDataset from a pandas DataFrame, the normalization will fail if
some columns have constant values ... This line will turn some columns of `self.conts` to nan if
`stds` is 0. It can be avoided by replacing the line with: self.conts = (self.conts - means[None]);
inds = stds != 0.; self.conts[:, inds] /= stds[inds]" -- "an example for a technical process would
a a temperature measurement, which could be 20.0 in a controlled environment". Reproduced with a
`TabularDataset`-like class (columns held in a dict of arrays) that computes the means / stds of the continuous columns on the
training frame and normalises with that line, a fastai-v1-like `TabularModel` (embeddings for
line / shift / product, BatchNorm1d on the continuous block, layers [200, 100]), Adam lr 1e-3 and a
DataLoader, on 6,000 synthetic production batches (6 continuous sensors: pressure, flow, two
temperatures, humidity, ambient temperature fixed at 20.0; the label is whether the batch fails
quality control). The printed loss is the training loss of the last epoch, `acc` the held-out
accuracy.

expect: constant-feature
symptom: nonfinite
batch: 10
"""
import argparse

import numpy as np
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, Dataset

ap = argparse.ArgumentParser()
ap.add_argument("--seed", type=int, default=0)
args = ap.parse_args()
torch.manual_seed(args.seed)
rng = np.random.default_rng(args.seed)
torch.set_num_threads(1)

CAT_NAMES = ["line", "shift", "product"]
CONT_NAMES = ["pressure", "flow", "reactor_temp", "outlet_temp", "humidity", "ambient_temp"]


def make_frame(n):
    df = {
        "line": rng.integers(0, 6, n), "shift": rng.integers(0, 3, n), "product": rng.integers(0, 12, n),
        "pressure": rng.normal(4.2, 0.3, n), "flow": rng.normal(120, 15, n),
        "reactor_temp": rng.normal(180, 6, n), "humidity": rng.normal(45, 8, n),
        "ambient_temp": np.full(n, 20.0),
    }
    df["outlet_temp"] = df["reactor_temp"] - 0.05 * df["flow"] + rng.normal(0, 1.5, n)
    risk = (1.8 * (df["pressure"] - 4.2) / 0.3 - 0.9 * (df["flow"] - 120) / 15 + 0.8 * (df["reactor_temp"] - 180) / 6
            + 0.5 * (df["line"] == 3) + 0.4 * (df["shift"] == 2) + 0.15 * (df["product"] % 4) - 1.0)
    df["failed"] = (rng.random(n) < 1 / (1 + np.exp(-1.5 * risk))).astype(int)
    return df


class TabularDataset(Dataset):
    def __init__(self, df, cat_names, cont_names, dep_var, stats=None):
        self.cats = torch.tensor(np.stack([df[c] for c in cat_names], 1), dtype=torch.long)
        self.conts = torch.tensor(np.stack([df[c] for c in cont_names], 1), dtype=torch.float32)
        self.y = torch.tensor(df[dep_var], dtype=torch.long)
        if stats is None:
            stats = self.conts.mean(0), self.conts.std(0, unbiased=False)
        self.means, self.stds = stats
        self.conts = (self.conts - self.means[None]) / self.stds[None]

    def __len__(self):
        return len(self.y)

    def __getitem__(self, i):
        return self.cats[i], self.conts[i], self.y[i]


def bn_drop_lin(n_in, n_out, bn=True, actn=None):
    layers = [nn.BatchNorm1d(n_in)] if bn else []
    layers.append(nn.Linear(n_in, n_out))
    if actn is not None:
        layers.append(actn)
    return layers


class TabularModel(nn.Module):
    def __init__(self, emb_szs, n_cont, out_sz, layers):
        super().__init__()
        self.embeds = nn.ModuleList([nn.Embedding(ni, nf) for ni, nf in emb_szs])
        self.bn_cont = nn.BatchNorm1d(n_cont)
        n_emb = sum(nf for _, nf in emb_szs)
        sizes = [n_emb + n_cont] + layers + [out_sz]
        actns = [nn.ReLU(inplace=True)] * (len(sizes) - 2) + [None]
        body = []
        for i, (n_in, n_out, act) in enumerate(zip(sizes[:-1], sizes[1:], actns)):
            body += bn_drop_lin(n_in, n_out, bn=i != 0, actn=act)
        self.layers = nn.Sequential(*body)

    def forward(self, x_cat, x_cont):
        x = torch.cat([e(x_cat[:, i]) for i, e in enumerate(self.embeds)], 1)
        x = torch.cat([x, self.bn_cont(x_cont)], 1)
        return self.layers(x)


train_df, valid_df = make_frame(6000), make_frame(1500)
train_ds = TabularDataset(train_df, CAT_NAMES, CONT_NAMES, "failed")
valid_ds = TabularDataset(valid_df, CAT_NAMES, CONT_NAMES, "failed", stats=(train_ds.means, train_ds.stds))
train_dl = DataLoader(train_ds, batch_size=64, shuffle=True)

emb_szs = [(6, 4), (3, 3), (12, 6)]
model = TabularModel(emb_szs, len(CONT_NAMES), 2, [200, 100])
optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
loss_func = nn.CrossEntropyLoss()

for epoch in range(4):
    model.train()
    total, count = 0.0, 0
    for x_cat, x_cont, y in train_dl:
        loss = loss_func(model(x_cat, x_cont), y)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        total += loss.item()
        count += 1
    print(f"epoch {epoch} train_loss {total / count:.4f}")

model.eval()
with torch.no_grad():
    pred = model(valid_ds.cats, valid_ds.conts).argmax(1)
    acc = (pred == valid_ds.y).float().mean().item()
print(f"final_loss={total / count:.6g} acc={acc:.4f}")
