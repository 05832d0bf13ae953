"""Class-conditional latent pipeline, the classifier part: pre-extracted image latents (4x8x8 = 256 values per image, 10 classes) are stored one file per image in a `features/` directory and the class ids one file per image in a `labels/` directory, with matching file names; a linear-plus-MLP probe (256 -> 128 ReLU -> 10) is trained on them with Adam lr 1e-3, DataLoader batches of 128, 6 epochs. The dataset builds its two lists with an unsorted directory listing of each folder. Directory order is arbitrary and differs between the two folders, so the i-th feature file is paired with the label of some other image: the labels no longer belong to the inputs, the probe can only learn the class frequencies, and held-out accuracy stays at chance.

Source: https://github.com/chuanyangjin/fast-DiT/issues/4 (CustomDataset file order)
Report: "In L102 of train.py, the feature files and label files are obtained using os.listdir. But
os.listdir does not guarantee the returned list the be sorted. Wouldn't this cause mismatch between the
feature files and label files?" -- author: "I've updated the code with 'sorted' to ensure the lists are in
the correct order". Reproduced with 6,000 synthetic latents (class prototypes plus noise) held in two
in-memory "directories" whose listing order is an arbitrary per-directory permutation, as a file system
gives. The printed loss is the mean training cross-entropy of the last epoch, `acc` the accuracy on 1,000
held-out latents paired correctly.

expect: label-misaligned
symptom: acc-below 0.3
batch: 23
"""
import argparse

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, Dataset

ap = argparse.ArgumentParser()
ap.add_argument("--seed", type=int, default=0)
args = ap.parse_args()
torch.manual_seed(args.seed)
torch.set_num_threads(1)

K = 10
prototypes = torch.randn(K, 256) * 0.3


def latents(n):
    y = torch.randint(0, K, (n,))
    return prototypes[y] + torch.randn(n, 256), y


class Directory:
    """A folder of one-tensor files; listing order is whatever the file system returns."""

    def __init__(self, files):
        self.files = files
        self.order = [list(files)[i] for i in torch.randperm(len(files)).tolist()]

    def listdir(self):
        return list(self.order)

    def load(self, name):
        return self.files[name]


feats, ys = latents(6000)
names = [f"{i:06d}.npy" for i in range(6000)]
feature_dir = Directory({n: feats[i] for i, n in enumerate(names)})
label_dir = Directory({n: ys[i] for i, n in enumerate(names)})


class LatentDataset(Dataset):
    def __init__(self, feature_dir, label_dir):
        self.feature_dir, self.label_dir = feature_dir, label_dir
        self.feature_files = feature_dir.listdir()
        self.label_files = label_dir.listdir()

    def __len__(self):
        return len(self.feature_files)

    def __getitem__(self, i):
        return self.feature_dir.load(self.feature_files[i]), self.label_dir.load(self.label_files[i])


loader = DataLoader(LatentDataset(feature_dir, label_dir), batch_size=128, shuffle=True)
X_test, y_test = latents(1000)
model = nn.Sequential(nn.Linear(256, 128), nn.ReLU(), nn.Linear(128, K))
opt = torch.optim.Adam(model.parameters(), lr=1e-3)

for epoch in range(6):
    total, n = 0.0, 0
    for xb, yb in loader:
        loss = F.cross_entropy(model(xb), yb)
        opt.zero_grad()
        loss.backward()
        opt.step()
        total += loss.item() * len(xb)
        n += len(xb)
    print(f"epoch {epoch}: train loss {total / n:.4f}")

with torch.no_grad():
    acc = (model(X_test).argmax(1) == y_test).float().mean().item()
print(f"final_loss={total / n:.6g} acc={acc:.4f}")
