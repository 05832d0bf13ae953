# Source: https://github.com/timeseriesAI/tsai/issues/22
# Pitfall: a regression model returns (N, 1) predictions while the targets are (N,); MSE broadcasts the pair
#   to (N, N), so the loss compares every prediction with every target and the model does not train across epochs.
# Reproduced in our own words, not the original code.
import numpy as np
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset


class InceptionLite(nn.Module):
    def __init__(self, c_in=3, nf=32):
        super().__init__()
        self.convs = nn.ModuleList([nn.Conv1d(c_in, nf, k, padding=k // 2) for k in (9, 19, 39)])
        self.bn = nn.BatchNorm1d(3 * nf)
        self.head = nn.Linear(3 * nf, 1)

    def forward(self, x):
        h = torch.relu(self.bn(torch.cat([c(x) for c in self.convs], dim=1)))
        return self.head(h.mean(dim=-1))


def make_loaders(X, y, bs=16):
    X = torch.as_tensor(X, dtype=torch.float32)
    y = torch.as_tensor(np.asarray(y), dtype=torch.float32)
    ds = TensorDataset(X, y)
    return DataLoader(ds, batch_size=bs, shuffle=True)


def fit_one_cycle(model, loader, epochs=5, lr=1e-3):
    opt = torch.optim.Adam(model.parameters(), lr=lr)
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=lr, total_steps=epochs * len(loader))
    loss_fn = nn.MSELoss()
    for _ in range(epochs):
        model.train()
        for xb, yb in loader:
            opt.zero_grad()
            loss = loss_fn(model(xb), yb)  # expect: loss-shape-broadcast
            loss.backward()
            opt.step()
            sched.step()
    return model
