"""A script that checkpoints after every optimizer step (AdamW with weight decay) and has a
NaN in one sample: its replay must leave the checkpoint as the real run wrote it."""
import sys

import numpy as np
import torch
from torch import nn
from torch.utils.data import DataLoader, Dataset

BAD = 200


class Table(Dataset):
    def __init__(self, n=512):
        rng = np.random.default_rng(0)
        self.x = rng.normal(size=(n, 16)).astype(np.float32)
        self.x[BAD, 3] = np.nan
        self.y = self.x[:, :4].sum(1).astype(np.float32)

    def __len__(self):
        return len(self.x)

    def __getitem__(self, i):
        return torch.from_numpy(self.x[i]), torch.tensor(self.y[i])


def main():
    ckpt = sys.argv[1]
    torch.manual_seed(0)
    model = nn.Sequential(nn.Linear(16, 32), nn.ReLU(), nn.Linear(32, 1))
    loader = DataLoader(Table(), batch_size=64, shuffle=True, generator=torch.Generator().manual_seed(0))
    opt = torch.optim.AdamW(model.parameters(), lr=1e-2, weight_decay=0.1)
    n = 0
    for x, y in loader:
        loss = nn.functional.mse_loss(model(x).squeeze(-1), y)
        opt.zero_grad()
        loss.backward()
        if not torch.isfinite(loss):
            print(f"saved step {n}")
            sys.exit(1)
        opt.step()
        n += 1
        torch.save({"step": n, "model": model.state_dict()}, ckpt)


if __name__ == "__main__":
    main()
