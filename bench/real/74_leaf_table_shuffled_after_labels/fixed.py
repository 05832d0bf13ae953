"""Leaf-disease classifier whose annotation table is shuffled after the label column was taken out:
images are loaded in the new order, labels stay in the old one.

Source: https://github.com/Borda/kaggle_image-classify/pull/12 (fix dataset shuffle)
Report (the fix's description): "What does this PR do? the shuffle was made after taking raw
labels :/". The dataset class read the CSV of (image, label) rows, took the label column, then
shuffled the table and loaded images from the shuffled rows, so image i was trained with the
label of some other image. Reproduced for a plant-pathology-style task (healthy / rust / scab /
multiple diseases) with synthetic 20x20 RGB leaf crops, a small CNN in a plain loop (no
DataLoader), and a held-out split built correctly.

expect: label-misaligned
symptom: final-loss-ratio 5
batch: 3
"""
import argparse

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

ap = argparse.ArgumentParser()
ap.add_argument("--seed", type=int, default=0)
args = ap.parse_args()
rng = np.random.RandomState(args.seed)
torch.manual_seed(args.seed)
torch.set_num_threads(1)

S, CLASSES = 20, ["healthy", "rust", "scab", "multiple_diseases"]


def render_leaf(label):
    img = np.zeros((3, S, S), np.float32)
    img[1] = 0.6 + 0.1 * rng.randn(S, S)  # green leaf
    n_spots = {0: 0, 1: 6, 2: 6, 3: 12}[label]
    for k in range(n_spots):
        y, x = rng.randint(2, S - 2, 2)
        if label == 1 or (label == 3 and k % 2 == 0):
            img[0, y - 1:y + 2, x - 1:x + 2] += 0.8  # orange rust pustules
        else:
            img[2, y - 1:y + 2, x - 1:x + 2] += 0.8  # dark scab lesions
            img[1, y - 1:y + 2, x - 1:x + 2] -= 0.4
    return img + 0.1 * rng.randn(3, S, S).astype(np.float32)


# "train.csv": image_id, label ; images stored by id
table = np.array([[i, rng.randint(0, 4)] for i in range(2000)])
images = {int(i): render_leaf(int(l)) for i, l in table}


class LeafDataset:
    def __init__(self, table, shuffle=True):
        self.table = table.copy()
        if shuffle:
            rng.shuffle(self.table)
        self.labels = self.table[:, 1].copy()

    def batches(self, bs):
        for i in range(0, len(self.table), bs):
            rows = self.table[i:i + bs]
            x = torch.tensor(np.stack([images[int(r[0])] for r in rows]))
            y = torch.tensor(self.labels[i:i + bs])
            yield x, y


net = nn.Sequential(nn.Conv2d(3, 16, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2),
                    nn.Conv2d(16, 32, 3, padding=1), nn.ReLU(), nn.AdaptiveAvgPool2d(1),
                    nn.Flatten(), nn.Linear(32, 4))
opt = torch.optim.Adam(net.parameters(), lr=3e-3)
train_table, val_table = table[:1600], table[1600:]
val_x = torch.tensor(np.stack([images[int(i)] for i in val_table[:, 0]]))
val_y = torch.tensor(val_table[:, 1])
losses = []
for epoch in range(6):
    ds = LeafDataset(train_table)
    for x, y in ds.batches(32):
        loss = F.cross_entropy(net(x), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
        losses.append(loss.item())
    with torch.no_grad():
        acc = (net(val_x).argmax(1) == val_y).float().mean().item()
    print(f"epoch {epoch} train_loss {np.mean(losses[-50:]):.4f} val_acc {acc:.3f}")
print(f"final_loss={sum(losses[-10:]) / 10:.6g} acc={acc:.4f}")
