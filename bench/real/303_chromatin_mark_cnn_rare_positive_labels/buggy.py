"""DeepSEA-style chromatin-feature predictor: a 1-D CNN over one-hot DNA windows predicting, for each of 12 chromatin marks, whether the window carries it (multi-label, BCE with logits, Adam). Each mark is present in only about 1.5% of windows, and the loss weighs every (window, mark) cell equally, so "always absent" already scores 98.5% per-cell accuracy and an almost-minimal loss: the network drifts to predicting no mark anywhere and never recovers the motifs that switch marks on.

Source: https://github.com/ljw-struggle/Bioinfor-DeepATT/issues/1 (Question about data imbalance)
Report: "due to the dominant 0 in the y labels, my model does not seem to able to predict any 1.
Through out the training, the model accuracy stays around 0.98. At the end, when I did prediction on
the test dataset with the trained model, I would get pretty much all 0 predictions." Reproduced with
8,000 synthetic 120-bp windows (12 marks, each switched on by planting three copies of its own 8-mer
motif in about 1.5% of windows), Conv1d(4, 32, 9) + max-pool + MLP head, Adam lr 3e-3, batches of
64, 4 epochs.
The printed loss is the BCE on 2,000 held-out windows, `acc` the mean over marks of the balanced
accuracy (average of the recall on windows with and without the mark).

expect: class-imbalance
symptom: acc-below 0.6
batch: 18
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

L, MARKS, RATE = 120, 12, 0.015
motifs = torch.randint(0, 4, (MARKS, 8))


def windows(n):
    seq = torch.randint(0, 4, (n, L))
    y = (torch.rand(n, MARKS) < RATE).float()
    for i, j in y.nonzero().tolist():
        for p in torch.randint(0, L - 8, (3,)).tolist():
            seq[i, p:p + 8] = motifs[j]
    return F.one_hot(seq, 4).float().transpose(1, 2), y


def mean_balanced_acc(logits, y):
    pred = (logits > 0).float()
    scores = []
    for j in range(MARKS):
        pos, neg = y[:, j] == 1, y[:, j] == 0
        tpr = (pred[pos, j] == 1).float().mean() if pos.any() else torch.tensor(1.0)
        tnr = (pred[neg, j] == 0).float().mean()
        scores.append((tpr + tnr) / 2)
    return torch.stack(scores).mean().item()


Xtr, ytr = windows(8000)
Xte, yte = windows(2000)
model = nn.Sequential(
    nn.Conv1d(4, 32, 9), nn.ReLU(), nn.AdaptiveMaxPool1d(1), nn.Flatten(),
    nn.Linear(32, 64), nn.ReLU(), nn.Linear(64, MARKS),
)
criterion = nn.BCEWithLogitsLoss()
opt = torch.optim.Adam(model.parameters(), lr=3e-3)
loader = DataLoader(TensorDataset(Xtr, ytr), batch_size=64, shuffle=True)

for epoch in range(4):
    model.train()
    for xb, yb in loader:
        loss = criterion(model(xb), yb)
        opt.zero_grad()
        loss.backward()
        opt.step()
    model.eval()
    with torch.no_grad():
        logits = model(Xte)
        val = criterion(logits, yte).item()
        acc = mean_balanced_acc(logits, yte)
        cell_acc = ((logits > 0).float() == yte).float().mean().item()
    print(f"epoch {epoch} train {loss.item():.4f} val {val:.4f} cell_acc {cell_acc:.4f} balanced {acc:.4f}")

print(f"final_loss={val:.6g} acc={acc:.4f}")
