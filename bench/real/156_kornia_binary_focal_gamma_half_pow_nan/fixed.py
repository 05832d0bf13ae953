"""Surface-defect patch classifier -- fixed as suggested in the issue: eps is also added inside
torch.pow, so the base of the fractional power never reaches exactly 0 (nothing else changed).
"""
import argparse

import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset

ap = argparse.ArgumentParser()
ap.add_argument("--seed", type=int, default=0)
args = ap.parse_args()
torch.manual_seed(args.seed)
torch.set_num_threads(1)


def make_patches(n):
    x = 0.5 + 0.08 * torch.randn(n, 1, 16, 16)
    y = (torch.rand(n) < 0.3).float()
    for i in torch.nonzero(y).flatten().tolist():
        if torch.rand(1) < 0.5:
            r = int(torch.randint(2, 14, (1,)))
            c0 = int(torch.randint(0, 6, (1,)))
            x[i, 0, r, c0:c0 + 10] += 0.6 + 0.3 * torch.rand(1)
        else:
            r, c = torch.randint(3, 13, (2,)).tolist()
            x[i, 0, r - 1:r + 2, c - 1:c + 2] -= 0.5 + 0.2 * torch.rand(1)
    return x, y


def binary_focal_loss_with_logits(logits, target, alpha=0.25, gamma=0.5, eps=1e-8):
    probs = torch.sigmoid(logits)
    loss = (-alpha * torch.pow(1.0 - probs + eps, gamma) * target * torch.log(probs + eps)
            - (1 - alpha) * torch.pow(probs + eps, gamma) * (1.0 - target) * torch.log(1.0 - probs + eps))
    return loss.mean()


class PatchNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.features = nn.Sequential(
            nn.Conv2d(1, 16, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2),
            nn.Conv2d(16, 32, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2),
            nn.Conv2d(32, 64, 3, padding=1), nn.ReLU(), nn.AdaptiveMaxPool2d(1))
        self.head = nn.Linear(64, 1)

    def forward(self, x):
        return self.head(self.features(x).flatten(1)).squeeze(1)


train_x, train_y = make_patches(3000)
test_x, test_y = make_patches(600)
loader = DataLoader(TensorDataset(train_x, train_y), batch_size=32, shuffle=True)
model = PatchNet()
optimizer = torch.optim.Adam(model.parameters(), lr=3e-3)

for epoch in range(10):
    total, count = 0.0, 0
    for x, y in loader:
        loss = binary_focal_loss_with_logits(model(x), y)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        total += loss.item()
        count += 1
    print(f"epoch {epoch} focal loss {total / count:.5f}")

with torch.no_grad():
    acc = ((model(test_x) > 0).float() == test_y).float().mean().item()
print(f"final_loss={total / count:.6g} acc={acc:.4f}")
