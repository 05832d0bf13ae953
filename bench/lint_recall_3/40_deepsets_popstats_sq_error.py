# Source: https://github.com/manzilzaheer/DeepSets/pull/1
# Pitfall: The set-regression loss subtracts the (128,) target from the (128, 1) prediction by hand;
# the difference broadcasts to (128, 128), so the model learns the batch-average statistic.
# Reproduced in our own words, not the original code.
import torch
import torch.nn as nn


class SetRegressor(nn.Module):
    def __init__(self, d_in=1, d_hidden=50):
        super().__init__()
        self.phi = nn.Sequential(nn.Linear(d_in, d_hidden), nn.ELU(), nn.Linear(d_hidden, d_hidden))
        self.rho = nn.Sequential(nn.Linear(d_hidden, d_hidden), nn.ELU(), nn.Linear(d_hidden, 1))

    def forward(self, sets):
        return self.rho(self.phi(sets).sum(dim=1))


def train(model, sampler, steps, lr=1e-3):
    optim = torch.optim.Adam(model.parameters(), lr=lr)
    for step in range(steps):
        sets, stat = sampler(batch_size=128)
        y_pred = model(sets)
        loss = ((y_pred - stat) ** 2).mean()  # expect: loss-shape-broadcast
        optim.zero_grad()
        loss.backward()
        optim.step()
    return model
