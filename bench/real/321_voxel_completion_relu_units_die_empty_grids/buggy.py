"""3-D shape completion from a single depth view: an 8x8x8 occupancy grid seen only from its front half is fed to a fully connected encoder-decoder (512-256-256-512 with ReLU hidden layers, per-voxel BCE on logits) that should predict the complete object. Adam is run at lr 0.1; the first few large steps drive the hidden pre-activations negative for every input -- the occupancy inputs are all non-negative, so a unit whose bias and weights are pushed down stays below zero for every grid -- the ReLU layers go dead, no gradient reaches the encoder again, and the decoder is left with its biases alone: it predicts the same near-empty grid for every object ("zero matrices").

Source: https://github.com/Yang7879/3D-RecGAN/issues/6 (Editing certain if statements results in zero matrices)
Report: "Whenever I try to change certain parameters as batch size ... I receive the predicted
results of 0 matrices or very strange values" -- closed by the reporter: "That was due to Dead ReLU
effect and depended on initialization." Reproduced with 3,000 synthetic objects (unions of 1-3
random axis-aligned boxes in an 8x8x8 grid, mirror-symmetric front to back; the input keeps only the
voxels in the front four slices), the MLP above, Adam lr 0.1, DataLoader batches of 64 for 6 epochs.
The printed loss is the per-voxel BCE on 600 held-out objects, `acc` the mean IoU of the thresholded
completions there.

expect: dead-relu
symptom: acc-below 0.45
batch: 19
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

G = 8


def objects(n):
    grid = torch.zeros(n, G, G, G)
    for i in range(n):
        for _ in range(int(torch.randint(1, 4, (1,)))):
            lo = torch.randint(0, G - 2, (3,))
            hi = lo + torch.randint(2, 5, (3,))
            grid[i, lo[0]:hi[0], lo[1]:hi[1], lo[2]:hi[2]] = 1.0
    grid = torch.maximum(grid, grid.flip(1))
    seen = grid.clone()
    seen[:, G // 2:] = 0.0
    return seen.flatten(1), grid.flatten(1)


X_train, Y_train = objects(3000)
X_test, Y_test = objects(600)

model = nn.Sequential(nn.Linear(G ** 3, 256), nn.ReLU(), nn.Linear(256, 256), nn.ReLU(), nn.Linear(256, G ** 3))
opt = torch.optim.Adam(model.parameters(), lr=0.1)
loader = DataLoader(TensorDataset(X_train, Y_train), batch_size=64, shuffle=True)


def iou(logits, target):
    pred = (logits > 0).float()
    inter = (pred * target).sum(1)
    union = ((pred + target) > 0).float().sum(1).clamp(min=1)
    return (inter / union).mean().item()


for epoch in range(6):
    for xb, yb in loader:
        loss = F.binary_cross_entropy_with_logits(model(xb), yb)
        opt.zero_grad()
        loss.backward()
        opt.step()
    with torch.no_grad():
        logits = model(X_test)
        test_loss = F.binary_cross_entropy_with_logits(logits, Y_test).item()
        test_iou = iou(logits, Y_test)
    print(f"epoch {epoch} train {loss.item():.4f} test {test_loss:.4f} iou {test_iou:.3f}")

print(f"final_loss={test_loss:.6g} acc={test_iou:.4f}")
