"""Binary property classifier for molecular fingerprints (multi-task, masked)."""
import argparse

import numpy as np
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset


class FingerprintFFN(nn.Module):
    def __init__(self, in_dim, hidden, num_tasks, dropout=0.1):
        super().__init__()
        self.body = nn.Sequential(
            nn.Linear(in_dim, hidden),
            nn.ReLU(),
            nn.Dropout(dropout),
            nn.Linear(hidden, num_tasks),
        )

    def forward(self, x):
        return self.body(x)


def masked_mean(values, mask):
    return (values * mask).sum() / mask.sum().clamp(min=1.0)


def train(args):
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    feats = torch.from_numpy(np.load(args.features)).float()
    targets = torch.from_numpy(np.load(args.targets)).float()
    mask = (~torch.isnan(targets)).float()
    targets = torch.nan_to_num(targets, nan=0.0)

    loader = DataLoader(TensorDataset(feats, targets, mask), batch_size=args.batch_size, shuffle=True)
    model = FingerprintFFN(feats.shape[1], args.hidden, targets.shape[1]).to(device)
    criterion = nn.BCELoss(reduction="none")
    optimizer = torch.optim.Adam(model.parameters(), lr=args.lr)

    for epoch in range(args.epochs):
        model.train()
        total = 0.0
        for x, y, m in loader:
            x, y, m = x.to(device), y.to(device), m.to(device)
            optimizer.zero_grad()
            per_task = criterion(torch.sigmoid(model(x)), y)  # expect: sigmoid-before-bce
            loss = masked_mean(per_task, m)
            loss.backward()
            optimizer.step()
            total += loss.item()
        print(f"epoch {epoch}: loss {total / len(loader):.4f}")
    return model


if __name__ == "__main__":
    p = argparse.ArgumentParser()
    p.add_argument("--features", required=True)
    p.add_argument("--targets", required=True)
    p.add_argument("--hidden", type=int, default=300)
    p.add_argument("--batch-size", type=int, default=50)
    p.add_argument("--lr", type=float, default=1e-3)
    p.add_argument("--epochs", type=int, default=30)
    train(p.parse_args())
