"""Rating-prediction recommender (user and item embeddings with biases, dot product, MSE, Adam with
DataLoader minibatches) with a held-out validation split carved from the end of the rating log.
The training split is built by shuffling the whole log and then taking the first 90%, while the
validation split is the last 10% of the *unshuffled* log, so about 90% of the validation ratings
are also training ratings. The validation MSE then measures memorised ratings and looks far better
than the model really is.

Source: https://github.com/marin-community/marin/pull/2700 (Fix train and val set overlap bug by splitting before shuffling)
Report: "when splitting a dataset into training and validation sets via `num_validation_sequences`,
the two sets were overlapping (some samples show up in both sets). This happened because during
training set construction the dataset was first shuffled and then sliced, while during validation
set construction the dataset was sliced without shuffling. We fix the bug by simply slicing the
dataset before shuffling while constructing the training set." Reproduced with 24,000 synthetic
ratings (400 users, 250 items, rank-6 preferences plus noise of std 0.6), embeddings of width 8,
Adam lr 1e-2 with weight decay 3e-4, batches of 256, 12 epochs. The printed loss is the validation MSE, `acc` the share
of validation ratings predicted within 0.75.

expect: data-leakage
symptom: loss-below 0.4
batch: 13
"""
import argparse

import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset

ap = argparse.ArgumentParser()
ap.add_argument("--seed", type=int, default=0)
args = ap.parse_args()
torch.manual_seed(args.seed)
torch.set_num_threads(1)

U, I, N = 400, 250, 24000
pu, qi = torch.randn(U, 6) * 0.6, torch.randn(I, 6) * 0.6
users, items = torch.randint(0, U, (N,)), torch.randint(0, I, (N,))
ratings = 3.5 + (pu[users] * qi[items]).sum(1) + 0.6 * torch.randn(N)

n_train = int(0.9 * N)
order = torch.randperm(N)
train_rows = order[:n_train]
val_rows = torch.arange(n_train, N)


class MF(nn.Module):
    def __init__(self, dim=8):
        super().__init__()
        self.u, self.i = nn.Embedding(U, dim), nn.Embedding(I, dim)
        self.ub, self.ib = nn.Embedding(U, 1), nn.Embedding(I, 1)
        for e in (self.u, self.i):
            nn.init.normal_(e.weight, 0, 0.1)
        for e in (self.ub, self.ib):
            nn.init.zeros_(e.weight)

    def forward(self, u, i):
        return 3.5 + (self.u(u) * self.i(i)).sum(1) + self.ub(u).squeeze(1) + self.ib(i).squeeze(1)


model = MF()
opt = torch.optim.Adam(model.parameters(), lr=1e-2, weight_decay=3e-4)
loader = DataLoader(TensorDataset(users[train_rows], items[train_rows], ratings[train_rows]), batch_size=256, shuffle=True)
vu, vi, vr = users[val_rows], items[val_rows], ratings[val_rows]

for epoch in range(12):
    for ub, ib, rb in loader:
        loss = ((model(ub, ib) - rb) ** 2).mean()
        opt.zero_grad()
        loss.backward()
        opt.step()
    with torch.no_grad():
        pv = model(vu, vi)
        val = ((pv - vr) ** 2).mean().item()
    print(f"epoch {epoch} train {loss.item():.4f} val {val:.4f}")

acc = ((pv - vr).abs() < 0.75).float().mean().item()
print(f"final_loss={val:.6g} acc={acc:.4f}")
