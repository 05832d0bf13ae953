"""expect: healthy. Logistic regression (one Linear layer, BCEWithLogitsLoss) with plain SGD
on standardized features, full epochs over a DataLoader, batch 128."""
import argparse

import torch
from torch import nn
from torch.utils.data import DataLoader, TensorDataset

ap = argparse.ArgumentParser()
ap.add_argument("--seed", type=int, default=0)
args = ap.parse_args()
torch.manual_seed(args.seed)
X = torch.randn(8000, 30)
w = torch.randn(30)
y = (X @ w + torch.randn(8000) > 0).float()
model = nn.Linear(30, 1)
opt = torch.optim.SGD(model.parameters(), lr=0.1)
crit = nn.BCEWithLogitsLoss()
for epoch in range(3):
    for xb, yb in DataLoader(TensorDataset(X, y), batch_size=128, shuffle=True):
        opt.zero_grad()
        loss = crit(model(xb).squeeze(1), yb)
        loss.backward()
        opt.step()
