"""fastai-v1-style tabular classifier -- fixed as the issue proposes: continuous columns are centred,
and divided by their std only where the std is not zero (nothing else changed).
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
        self.conts = self.conts - self.means[None]
        inds = self.stds != 0.
        self.conts[:, inds] /= self.stds[inds]

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
