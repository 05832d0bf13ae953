"""Fuel-economy class predictor on a car table: "efficient" is defined as consumption-based mileage above the median, and a small MLP (8-32-1, binary cross-entropy, Adam lr 0.01, DataLoader batches of 64) predicts it from the car's columns. The table was produced by binarising a regression data set, and the original continuous mileage column -- the quantity the label was thresholded from -- is still among the eight input columns. The network only has to learn one threshold on that column: the held-out loss falls towards zero and the accuracy to nearly 100%, while the engineering columns (weight, displacement, power, ...) that would be known for a new car barely matter.

Source: https://github.com/openml/OpenML/issues/474 (label leakage datasets)
Report: a bot fitting a shallow decision tree to every small OpenML classification data set flags those it
fits perfectly; "For example in 778 the label is a single threshold on the first axis. This is probably
because the dataset is the result of binarizing a regression dataset." and "In
https://www.openml.org/d/1121 the target is simply identical to one" of the features. Reproduced with
4,000 synthetic cars (weight, displacement, horsepower, cylinders, acceleration, model year, origin
code; mileage a noisy nonlinear function of them), the label mileage > median, the mileage column kept as
the first input, standardised inputs, 15 epochs. The printed loss is the cross-entropy on 1,000
held-out cars, `acc` the accuracy there.

expect: target-leakage
symptom: loss-below 0.1
batch: 21
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
inputs = ["mpg", "weight", "displacement", "horsepower", "cylinders", "acceleration", "year", "origin"]
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
