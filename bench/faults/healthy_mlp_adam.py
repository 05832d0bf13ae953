"""expect: healthy. A tabular MLP classifier with Adam, standardized features, mini-batches
of 64 from a shuffled DataLoader, cross-entropy; trains normally."""
import argparse

import torch
from torch import nn
from torch.utils.data import DataLoader, TensorDataset

ap = argparse.ArgumentParser()
ap.add_argument("--seed", type=int, default=0)
args = ap.parse_args()
torch.manual_seed(args.seed)
X = torch.randn(6000, 20)
y = (X[:, :5] @ torch.randn(5, 4) + 0.3 * torch.randn(6000, 4)).argmax(1)
model = nn.Sequential(nn.Linear(20, 128), nn.ReLU(), nn.Linear(128, 64), nn.ReLU(), nn.Linear(64, 4))
opt = torch.optim.Adam(model.parameters(), lr=1e-3)
for epoch in range(3):
    for xb, yb in DataLoader(TensorDataset(X, y), batch_size=64, shuffle=True):
        loss = nn.functional.cross_entropy(model(xb), yb)
        opt.zero_grad()
        loss.backward()
        opt.step()
