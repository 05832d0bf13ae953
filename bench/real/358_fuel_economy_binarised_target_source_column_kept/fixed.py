"""Fuel-economy class predictor -- fixed by removing the continuous mileage column, from which the label
was thresholded, from the inputs, so the model predicts efficiency from the car's engineering columns
(nothing else changed).
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

N = 5000
weight = 1500 + 600 * torch.rand(N) + 400 * torch.rand(N)
displacement = 0.09 * weight + 40 * torch.randn(N)
horsepower = 0.045 * weight + 15 * torch.randn(N)
cylinders = torch.clamp(torch.round(displacement / 50), 3, 8)
acceleration = 22 - horsepower / 15 + torch.randn(N)
year = torch.randint(70, 83, (N,)).float()
origin = torch.randint(0, 3, (N,)).float()
mpg = 60 - 0.012 * weight - 0.05 * horsepower + 0.6 * (year - 70) + 1.5 * origin + 2.5 * torch.randn(N)
efficient = (mpg > mpg.median()).float()

columns = {"mpg": mpg, "weight": weight, "displacement": displacement, "horsepower": horsepower,
           "cylinders": cylinders, "acceleration": acceleration, "year": year, "origin": origin}
inputs = ["weight", "displacement", "horsepower", "cylinders", "acceleration", "year", "origin"]
X = torch.stack([columns[c] for c in inputs], 1)
X = (X - X.mean(0)) / X.std(0)
train, test = slice(0, 4000), slice(4000, N)

model = nn.Sequential(nn.Linear(X.shape[1], 32), nn.ReLU(), nn.Linear(32, 1))
opt = torch.optim.Adam(model.parameters(), lr=0.01)
loader = DataLoader(TensorDataset(X[train], efficient[train]), batch_size=64, shuffle=True)

for epoch in range(15):
    for xb, yb in loader:
        loss = F.binary_cross_entropy_with_logits(model(xb).squeeze(1), yb)
        opt.zero_grad()
        loss.backward()
        opt.step()
    with torch.no_grad():
        logits = model(X[test]).squeeze(1)
        test_loss = F.binary_cross_entropy_with_logits(logits, efficient[test]).item()
        acc = ((logits > 0).float() == efficient[test]).float().mean().item()
    if epoch % 3 == 2:
        print(f"epoch {epoch} last batch {loss.item():.4f} test {test_loss:.4f} acc {acc:.3f}")

print(f"final_loss={test_loss:.6g} acc={acc:.4f}")
