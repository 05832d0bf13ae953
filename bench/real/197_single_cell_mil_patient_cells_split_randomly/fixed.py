"""Multiple-instance regression on single-cell data -- fixed as the issue asks: the split is made
over patients (20% of the patients, with all their cells, form the validation set), so no patient
has cells on both sides (nothing else changed).
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

PATIENTS, CELLS, GENES, BAG = 120, 300, 20, 64


def make_cohort():
    score = torch.randn(PATIENTS)
    program = torch.randn(GENES) / GENES ** 0.5
    donor = 1.5 * torch.randn(PATIENTS, GENES)
    cells = donor[:, None] + 0.25 * score[:, None, None] * program + torch.randn(PATIENTS, CELLS, GENES)
    return cells, score


def split(cells):
    perm = torch.randperm(PATIENTS)
    val_patients = set(perm[:PATIENTS // 5].tolist())
    train = [(p, cells[p]) for p in range(PATIENTS) if p not in val_patients]
    val = [(p, cells[p]) for p in range(PATIENTS) if p in val_patients]
    return train, val


class MILRegressor(nn.Module):
    def __init__(self):
        super().__init__()
        self.enc = nn.Sequential(nn.Linear(GENES, 64), nn.ReLU(), nn.Linear(64, 32), nn.ReLU())
        self.att = nn.Linear(32, 1)
        self.head = nn.Linear(32, 1)

    def forward(self, bags):
        h = self.enc(bags)
        w = torch.softmax(self.att(h), dim=1)
        return self.head((w * h).sum(1)).squeeze(1)


def bags_of(groups, score, per_group):
    xs, ys = [], []
    for p, c in groups:
        for _ in range(per_group):
            xs.append(c[torch.randint(0, len(c), (BAG,))])
            ys.append(score[p])
    return torch.stack(xs), torch.stack(ys)


class Trainer:
    def __init__(self, model):
        self.model = model
        self.opt = torch.optim.Adam(model.parameters(), lr=2e-3)

    def fit(self, train, val, score, epochs):
        Xv, yv = bags_of(val, score, 2)
        for epoch in range(epochs):
            X, y = bags_of(train, score, 8)
            order = torch.randperm(len(X))
            for i in range(0, len(X), 32):
                idx = order[i:i + 32]
                loss = F.mse_loss(self.model(X[idx]), y[idx])
                self.opt.zero_grad()
                loss.backward()
                self.opt.step()
            with torch.no_grad():
                pred = self.model(Xv)
                val_loss = F.mse_loss(pred, yv).item()
            print(f"epoch {epoch} train {loss.item():.4f} val {val_loss:.4f}")
        return val_loss, ((pred - yv).abs() < 0.5).float().mean().item()


cells, score = make_cohort()
train, val = split(cells)
val_loss, acc = Trainer(MILRegressor()).fit(train, val, score, epochs=12)
print(f"final_loss={val_loss:.6g} acc={acc:.4f}")
