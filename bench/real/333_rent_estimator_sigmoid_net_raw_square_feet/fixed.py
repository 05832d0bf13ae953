"""brain.js-style all-sigmoid rent estimator -- fixed as the answer suggests: the inputs are scaled
into the sigmoid's working range before training (bedrooms / 10, bathrooms / 10, square feet / 10,000),
so the hidden units are no longer saturated and their gradients flow (nothing else changed).
"""
import argparse

import torch
import torch.nn as nn

ap = argparse.ArgumentParser()
ap.add_argument("--seed", type=int, default=0)
args = ap.parse_args()
torch.manual_seed(args.seed)
torch.set_num_threads(1)


def listings(n):
    bedrooms = torch.randint(1, 6, (n,)).float()
    bathrooms = torch.randint(1, 4, (n,)).float()
    sqft = 350 * bedrooms + 200 * bathrooms + 300 * torch.rand(n) + 200
    rent = 300 + 0.75 * sqft + 90 * bathrooms + 60 * torch.randn(n)
    return torch.stack([bedrooms, bathrooms, sqft], 1), rent


def prepare(features, rent):
    x = features / torch.tensor([10.0, 10.0, 10000.0])
    return x, rent / 10000


X_train, Y_train = prepare(*listings(400))
X_val, Y_val = prepare(*listings(200))
net = nn.Sequential(nn.Linear(3, 8), nn.Sigmoid(), nn.Linear(8, 1), nn.Sigmoid())
opt = torch.optim.SGD(net.parameters(), lr=0.3, momentum=0.1)

for epoch in range(40):
    total = 0.0
    for i in torch.randperm(len(X_train)).tolist():
        loss = ((net(X_train[i:i + 1]).squeeze(1) - Y_train[i:i + 1]) ** 2).mean()
        opt.zero_grad()
        loss.backward()
        opt.step()
        total += loss.item()
    with torch.no_grad():
        pred = net(X_val).squeeze(1)
    val = ((pred - Y_val) ** 2).mean().item()
    acc = ((pred - Y_val).abs() < 0.1 * Y_val).float().mean().item()
    if epoch % 5 == 4:
        print(f"epoch {epoch} train {total / len(X_train):.6f} val {val:.6f} acc {acc:.3f} pred std {pred.std():.4f}")

print(f"final_loss={val:.6g} acc={acc:.4f}")
