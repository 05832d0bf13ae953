"""Traffic-sign classifier -- fixed by removing byte-identical duplicate photos (torch.unique over the
descriptors) before the random train/test split, so no test photo is a copy of a training photo
(nothing else changed).
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

D, SIGNS, PER_SIGN = 64, 20, 60
BEND_LEFT, BEND_RIGHT = 0, 1
templates = torch.randn(SIGNS, D)
labels = torch.arange(SIGNS).repeat_interleave(PER_SIGN)
photos = templates[labels] + 2.0 * torch.randn(len(labels), D)

copy_prob = torch.full((len(labels),), 0.4)
copy_prob[(labels == BEND_LEFT) | (labels == BEND_RIGHT)] = 0.9
copied = torch.nonzero(torch.rand(len(labels)) < copy_prob).squeeze(1)
files_x = torch.cat([photos, photos[copied]])
files_y = torch.cat([labels, labels[copied]])
files_x, first = torch.unique(files_x, dim=0, return_inverse=True)
files_y = torch.zeros(len(files_x), dtype=torch.long).scatter_(0, first, torch.cat([labels, labels[copied]]))

order = torch.randperm(len(files_x))
n_train = int(0.8 * len(files_x))
train_idx, test_idx = order[:n_train], order[n_train:]
print(f"files {len(files_x)}: train {len(train_idx)}, test {len(test_idx)}")

model = nn.Sequential(nn.Linear(D, 256), nn.ReLU(), nn.Linear(256, SIGNS))
opt = torch.optim.Adam(model.parameters(), lr=1e-3)

for epoch in range(12):
    shuffled = train_idx[torch.randperm(len(train_idx))]
    for i in range(0, len(shuffled), 32):
        idx = shuffled[i:i + 32]
        loss = F.cross_entropy(model(files_x[idx]), files_y[idx])
        opt.zero_grad()
        loss.backward()
        opt.step()
    with torch.no_grad():
        train_loss = F.cross_entropy(model(files_x[train_idx]), files_y[train_idx]).item()
        logits = model(files_x[test_idx])
        test_loss = F.cross_entropy(logits, files_y[test_idx]).item()
        acc = (logits.argmax(1) == files_y[test_idx]).float().mean().item()
    print(f"epoch {epoch} train {train_loss:.4f} test {test_loss:.4f} acc {acc:.3f}")

print(f"final_loss={test_loss:.6g} acc={acc:.4f}")
