"""Fixed version of 31_listdir_order_vs_sorted_labels/buggy.py (the source and the report are in its docstring).

Fix: sort the listing before building the image list.
"""
import argparse
import random

import torch
import torch.nn as nn

ap = argparse.ArgumentParser()
ap.add_argument("--seed", type=int, default=0)
args = ap.parse_args()
torch.manual_seed(args.seed)
random.seed(args.seed)

# the "img_align_celeba" folder: file name -> 3x12x12 image; attribute = smiling or not
N = 1500
names = [f"{i:06d}.jpg" for i in range(1, N + 1)]
smiling = {n: int(random.random() < 0.5) for n in names}
pattern = torch.randn(3, 12, 12)
folder = {n: torch.randn(3, 12, 12) + (1.5 if smiling[n] else -1.5) * pattern * 0.5 for n in names}
listing = list(folder)
random.shuffle(listing)  # os.listdir returns entries in arbitrary (file-system) order

# list_attr_celeba.txt is sorted by file name
attr_rows = sorted((n, smiling[n]) for n in names)


class CelebA(torch.utils.data.Dataset):
    def __init__(self):
        list_sorted = sorted(listing)
        self.images = [f for f in list_sorted if f.endswith(".jpg")]
        self.labels = [a for _, a in attr_rows]

    def __len__(self):
        return len(self.images)

    def __getitem__(self, i):
        return folder[self.images[i]], self.labels[i]


loader = torch.utils.data.DataLoader(CelebA(), batch_size=50, shuffle=True)
clf = nn.Sequential(nn.Conv2d(3, 8, 3), nn.ReLU(), nn.AdaptiveAvgPool2d(2), nn.Flatten(), nn.Linear(32, 2))
opt = torch.optim.Adam(clf.parameters(), lr=3e-3)
losses = []
for epoch in range(3):
    for x, y in loader:
        loss = nn.functional.cross_entropy(clf(x), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
        losses.append(loss.item())
ds = CelebA()
with torch.no_grad():
    x = torch.stack([folder[n] for n in names])
    truth = torch.tensor([smiling[n] for n in names])
    acc = (clf(x).argmax(1) == truth).float().mean().item()
print(f"final_loss={sum(losses[-10:]) / 10:.6g} acc={acc:.4f}")
