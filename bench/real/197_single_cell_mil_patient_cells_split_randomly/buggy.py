"""Multiple-instance regression on single-cell data (each training bag is a random set of 64 cells of one patient; a cell encoder, attention pooling and a regression head predict the patient's clinical score; MSE, Adam, a small Trainer class) whose train / validation split is made over cells instead of patients: cells of every patient fall on both sides, the model can learn each patient's own cell signature and look the score up, and the validation error comes out about as low as the training error -- a leak, not generalisation to new patients.

Source: https://github.com/theislab/multimil/issues/75 (Data leakage between train and validation sets)
Report: "the train and validation split in MILClassifier allows for instances from one sample to be in
both train and validation sets ... The output is 108, the number of samples in both train and
validation split ... this creates data leakage, as on my data (with MILClassifier running a
regression task) the validation error is consistently below the training error." Reproduced with
120 synthetic patients of 300 cells (20 genes; a patient-specific batch / donor offset much larger
than the weak disease programme that the score follows, plus cell noise), an 80/20 split of the
cells, bags of 64 cells drawn from a patient's cells of one split, encoder 20-64-32, attention
pooling, head 32-1, Adam lr 2e-3, 12 epochs of 8 bags per patient. The printed loss is
the validation MSE of the (standardised) score, `acc` the share of validation bags within 0.5
of the score.

expect: data-leakage
symptom: loss-below 0.3
batch: 11
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
    train, val = [], []
    for p in range(PATIENTS):
        perm = torch.randperm(CELLS)
        train.append((p, cells[p, perm[60:]]))
        val.append((p, cells[p, perm[:60]]))
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
