"""Style: a tabular regression script with numpy preprocessing and plain SGD."""
import numpy as np
import torch
from torch import nn


def load(path):
    arr = np.loadtxt(path, delimiter=",", skiprows=1)
    x, y = arr[:, :-1], arr[:, -1:]
    x = (x - x.mean(0)) / x.std(0)  # expect: unguarded-zero
    return torch.tensor(x, dtype=torch.float32), torch.tensor(y, dtype=torch.float32)


def fit(x, y, epochs=200, bs=64):
    model = nn.Sequential(nn.Linear(x.shape[1], 64), nn.Tanh(), nn.Linear(64, 1))
    opt = torch.optim.SGD(model.parameters(), lr=1e-3, momentum=0.9)
    loss_fn = nn.MSELoss(reduction="sum")  # expect: summed-loss-step
    for epoch in range(epochs):
        perm = torch.randperm(len(x))
        for i in range(0, len(x), bs):
            idx = perm[i:i + bs]
            opt.zero_grad()
            loss = loss_fn(model(x[idx]), y[idx])
            loss.backward()
            opt.step()
    return model
