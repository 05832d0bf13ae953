"""Crowd-counting density-map network: the same program with the ReLU activations (including the one on the density output) replaced by LeakyReLU, so output units pushed below zero by the mostly-zero target maps still pass gradient and recover, and the network learns the density.
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

SIZE, MAX_PEOPLE, SIGMA = 24, 15, 1.5
yy, xx = torch.meshgrid(torch.arange(SIZE).float(), torch.arange(SIZE).float(), indexing="ij")


def crowd_images(n):
    images = 0.3 * torch.randn(n, 1, SIZE, SIZE)
    density = torch.zeros(n, 1, SIZE, SIZE)
    counts = torch.randint(0, MAX_PEOPLE + 1, (n,))
    for i in range(n):
        for _ in range(counts[i].item()):
            cy, cx = torch.randint(2, SIZE - 2, (2,)).float()
            blob = torch.exp(-((yy - cy) ** 2 + (xx - cx) ** 2) / (2 * SIGMA ** 2))
            images[i, 0] += blob
            density[i, 0] += blob / blob.sum()
    return images, density, counts.float()


def act():
    return nn.LeakyReLU(0.01)


model = nn.Sequential(
    nn.Conv2d(1, 16, 5, padding=2), act(),
    nn.Conv2d(16, 16, 3, padding=1), act(),
    nn.Conv2d(16, 8, 3, padding=1), act(),
    nn.Conv2d(8, 1, 1), act(),
)
X_train, D_train, c_train = crowd_images(1200)
X_test, D_test, c_test = crowd_images(400)
opt = torch.optim.Adam(model.parameters(), lr=1e-2)
loader = torch.utils.data.DataLoader(torch.utils.data.TensorDataset(X_train, D_train), batch_size=32, shuffle=True)

for epoch in range(8):
    total = 0.0
    for xb, db in loader:
        loss = F.mse_loss(model(xb), db)
        opt.zero_grad()
        loss.backward()
        opt.step()
        total += loss.item() * len(xb)
    with torch.no_grad():
        pred_counts = model(X_test).sum((1, 2, 3))
        mae = (pred_counts - c_test).abs().mean().item()
        acc = ((pred_counts - c_test).abs() < 1.5).float().mean().item()
    print(f"epoch {epoch} mse {total / len(X_train):.3e} count_mae {mae:.3f} within1.5 {acc:.3f}")

print(f"final_loss={mae:.6g} acc={acc:.4f}")
