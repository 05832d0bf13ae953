"""Mechanism (d): NaN in one input sample. Row 200 of the features has a NaN (a failed
join upstream); the first linear layer reads it and the loss is NaN."""
import sys

import numpy as np
import torch
from torch import nn
from torch.utils.data import DataLoader, Dataset

BAD = 200


class Table(Dataset):
    def __init__(self, n=512):
        rng = np.random.default_rng(0)
        self.x = rng.normal(size=(n, 24)).astype(np.float32)
        self.x[BAD, 5] = np.nan
        self.y = (self.x[:, :4].sum(1) + 0.1 * rng.normal(size=n)).astype(np.float32)

    def __len__(self):
        return len(self.x)

    def __getitem__(self, i):
        return torch.from_numpy(self.x[i]), torch.tensor(self.y[i])


def main():
    torch.manual_seed(0)
    model = nn.Sequential(nn.Linear(24, 64), nn.ReLU(), nn.Linear(64, 1))
    loader = DataLoader(Table(), batch_size=64, shuffle=True, generator=torch.Generator().manual_seed(0))
    opt = torch.optim.SGD(model.parameters(), lr=1e-2)
    for epoch in range(2):
        for step, (x, y) in enumerate(loader):
            loss = nn.functional.mse_loss(model(x).squeeze(-1), y)
            opt.zero_grad()
            loss.backward()
            opt.step()
            if not torch.isfinite(loss):
                print(f"epoch {epoch} step {step}: loss {loss.item()}")
                sys.exit(1)


if __name__ == "__main__":
    main()
