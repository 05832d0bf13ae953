"""Traffic-sign classifier on 64-d crop descriptors (20 sign classes): the image folder is split 80/20 at random into training and test files and a 64-256-20 MLP is trained with cross-entropy (Adam lr 1e-3, batches of 32 sliced by hand). The folder holds many byte-identical copies of the same photo under different file names -- almost every "bend left" and "bend right" photo and about 40% of the others -- and the split is drawn over files, so a large part of the test set is an exact copy of a training image. The test loss the run reports is then far lower than what the classifier achieves on signs it has not seen.

Source: https://github.com/near77/Tiny-YOLO-voc-traffic-sign-detection/issues/3 (duplicate value in the dataset)
Report: "there are many duplicate images in the dataset, especially in the bend to left and bend to right
traffic sign, so it may affect map when we split the data to train set and test set". Reproduced with
1,200 synthetic sign photos (20 classes x 60, a class template plus strong per-photo variation of light,
angle and background), 90% of the two bend classes and 40% of the rest stored a second time, a random
80/20 split over the files, 12 epochs. The printed loss is the test cross-entropy, `acc` the test
accuracy.

expect: data-leakage
symptom: loss-below 0.18
batch: 21
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
