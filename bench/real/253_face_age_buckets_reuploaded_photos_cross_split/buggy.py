"""Age-bucket classifier on face embeddings (64-d descriptors from a frozen face encoder, 4 age
buckets, an MLP trained by a small Trainer class with AdamW and a DataLoader). The collection was
scraped and a large share of the photos were uploaded twice, so the same embedding appears twice;
the train/validation split is drawn at random over the rows AFTER collecting, so for most re-uploaded
photos one copy lands in training and the other in validation. The network fits its training rows far
better than new faces, and every leaked validation row is a training row it has already fitted: the
validation loss the run reports is much lower than the loss on genuinely unseen faces.

Source: https://github.com/joojs/fairface/issues/21 (Duplicate images in train and val)
Report: "I identified 1000s of duplicated images appearing in train and val. Not only is this
inefficient for processing, but this gives an unrealistic val score. Can you de-duplicate the dataset
please? I have already done so on my end." Reproduced with 2,400 synthetic face embeddings (age bucket
= a nonlinear function of the descriptor, 12% annotation noise), 1,400 of the photos present twice,
a random 75/25 row split. MLP 64-256-4 with dropout, AdamW lr 2e-3 wd 5e-2, batch 64, 5 epochs. The
printed loss is the validation cross-entropy the run reports, `acc` the validation accuracy.

expect: data-leakage
symptom: loss-below 0.72
batch: 15
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
