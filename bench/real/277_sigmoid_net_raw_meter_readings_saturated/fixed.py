"""Sigmoid backpropagation network for tariff groups -- fixed as the reporter found: every input
column is scaled to [0, 1] with the training minimum and maximum before it enters the network, so the
sigmoid units start in their responsive range. Nothing else changed.
"""
import argparse

import torch
import torch.nn as nn

ap = argparse.ArgumentParser()
ap.add_argument("--seed", type=int, default=0)
args = ap.parse_args()
torch.manual_seed(args.seed)
torch.set_num_threads(1)


def households(n):
    area = 500 + 3000 * torch.rand(n)
    occupants = torch.randint(1, 7, (n,)).float()
    kwh = area * (0.15 + 0.25 * torch.rand(n)) + 60 * occupants
    peak = 1.5 + kwh / 250 * (0.5 + torch.rand(n))
    y = ((kwh / area > 0.32) | (peak > 9)).float()
    return torch.stack([kwh, peak, area, occupants], 1), y


X_train, y_train = households(4000)
X_test, y_test = households(1000)


lo, hi = X_train.min(0).values, X_train.max(0).values


def prepare(x):
    return (x - lo) / (hi - lo)


model = nn.Sequential(nn.Linear(4, 16), nn.Sigmoid(), nn.Linear(16, 8), nn.Sigmoid(),
                      nn.Linear(8, 1), nn.Sigmoid())
with torch.no_grad():
    for layer in model:
        if isinstance(layer, nn.Linear):
            layer.weight.uniform_(-0.5, 0.5)
            layer.bias.uniform_(-0.5, 0.5)
opt = torch.optim.SGD(model.parameters(), lr=0.5)
Xp, Xp_test = prepare(X_train), prepare(X_test)

for epoch in range(30):
    order = torch.randperm(len(Xp))
    for i in range(0, len(Xp), 32):
        idx = order[i:i + 32]
        loss = ((model(Xp[idx]).squeeze(1) - y_train[idx]) ** 2).mean()
        opt.zero_grad()
        loss.backward()
        opt.step()
    with torch.no_grad():
        out = model(Xp_test).squeeze(1)
        test_mse = ((out - y_test) ** 2).mean().item()
        acc = ((out > 0.5).float() == y_test).float().mean().item()
    if epoch % 5 == 4:
        print(f"epoch {epoch} test mse {test_mse:.4f} acc {acc:.3f}")

print(f"final_loss={test_mse:.6g} acc={acc:.4f}")
