"""Age-bucket classifier on face embeddings -- fixed as the reporter did: the rows are de-duplicated
(identical embeddings collapsed to one photo) before the random train/validation split, so no photo
is on both sides. Nothing else changed.
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

DIM, BUCKETS = 64, 4
proj = torch.randn(DIM, 8) / DIM ** 0.5
head = torch.randn(8, BUCKETS) * 2


def faces(n):
    x = torch.randn(n, DIM)
    h = x @ proj
    logits = torch.tanh(h * 1.5) @ head + 0.6 * h[:, :BUCKETS] ** 2
    y = logits.argmax(1)
    noisy = torch.rand(n) < 0.12
    y[noisy] = torch.randint(0, BUCKETS, (int(noisy.sum()),))
    return x, y


x_photos, y_photos = faces(2400)
reup = torch.randperm(2400)[:1400]
x_rows = torch.cat([x_photos, x_photos[reup]])
y_rows = torch.cat([y_photos, y_photos[reup]])


def split(x, y, frac=0.25):
    perm = torch.randperm(len(x))
    n_val = int(frac * len(x))
    return x[perm[n_val:]], y[perm[n_val:]], x[perm[:n_val]], y[perm[:n_val]]


class Trainer:
    def __init__(self, model, lr, wd):
        self.model = model
        self.opt = torch.optim.AdamW(model.parameters(), lr=lr, weight_decay=wd)

    def fit_epoch(self, loader):
        self.model.train()
        total, count = 0.0, 0
        for xb, yb in loader:
            loss = F.cross_entropy(self.model(xb), yb)
            self.opt.zero_grad()
            loss.backward()
            self.opt.step()
            total += loss.item() * len(yb)
            count += len(yb)
        return total / count

    @torch.no_grad()
    def evaluate(self, x, y):
        self.model.eval()
        out = self.model(x)
        return F.cross_entropy(out, y).item(), (out.argmax(1) == y).float().mean().item()


x_rows, keep = torch.unique(x_rows, dim=0, return_inverse=True)[0], None
y_rows = y_photos[torch.cat([torch.nonzero((x_photos == r).all(1))[0] for r in x_rows])]
x_train, y_train, x_val, y_val = split(x_rows, y_rows)
loader = DataLoader(TensorDataset(x_train, y_train), batch_size=64, shuffle=True)
model = nn.Sequential(nn.Linear(DIM, 256), nn.ReLU(), nn.Dropout(0.3), nn.Linear(256, BUCKETS))
trainer = Trainer(model, lr=2e-3, wd=5e-2)
for epoch in range(5):
    train_loss = trainer.fit_epoch(loader)
    val_loss, val_acc = trainer.evaluate(x_val, y_val)
    if True:
        print(f"epoch {epoch} train {train_loss:.4f} val {val_loss:.4f} acc {val_acc:.3f}")

val_loss, val_acc = trainer.evaluate(x_val, y_val)
print(f"final_loss={val_loss:.6g} acc={val_acc:.4f}")
