# Source: https://github.com/Strawberry-Eat-Mango/PCT_Pytorch/issues/21
# Pitfall: the cosine schedule is stepped at the top of each epoch, before any optimizer.step() of that epoch,
#          so PyTorch warns and the first learning-rate value of the schedule is skipped.
# Reproduced in our own words, not the original code.
import argparse

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.optim.lr_scheduler import CosineAnnealingLR
from torch.utils.data import DataLoader, TensorDataset


class PointEncoder(nn.Module):
    def __init__(self, k=40):
        super().__init__()
        self.mlp = nn.Sequential(nn.Conv1d(3, 64, 1), nn.BatchNorm1d(64), nn.ReLU(), nn.Conv1d(64, 256, 1), nn.ReLU())
        self.cls = nn.Sequential(nn.Linear(256, 128), nn.ReLU(), nn.Dropout(0.5), nn.Linear(128, k))

    def forward(self, pts):  # pts: (B, 3, N)
        return self.cls(self.mlp(pts).max(dim=2).values)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--epochs", type=int, default=5)
    parser.add_argument("--lr", type=float, default=0.01)
    args = parser.parse_args()

    clouds, labels = torch.randn(200, 3, 512), torch.randint(0, 40, (200,))
    train_loader = DataLoader(TensorDataset(clouds, labels), batch_size=16, shuffle=True, drop_last=True)
    model = PointEncoder()
    opt = torch.optim.SGD(model.parameters(), lr=args.lr * 100, momentum=0.9, weight_decay=5e-4)
    scheduler = CosineAnnealingLR(opt, args.epochs, eta_min=args.lr)
    for epoch in range(args.epochs):
        scheduler.step()  # expect: scheduler-before-optimizer
        model.train()
        running = 0.0
        for data, label in train_loader:
            opt.zero_grad()
            loss = F.cross_entropy(model(data), label, label_smoothing=0.2)
            loss.backward()
            opt.step()
            running += loss.item()
        print(epoch, running / len(train_loader), opt.param_groups[0]["lr"])


if __name__ == "__main__":
    main()
