# Source: https://github.com/google/brax/pull/152 (quoting the PyTorch FAQ on out-of-memory)
# Pitfall: the loss tensor is summed into a running total across the loop, so every step's
# autograd graph stays alive through total_loss.
# Reproduced in our own words, not the original code.
import torch
from torch import nn

model = nn.Sequential(nn.Linear(16, 64), nn.Tanh(), nn.Linear(64, 1))
optimizer = torch.optim.Adam(model.parameters(), lr=3e-4)
criterion = nn.MSELoss()


def fit(batches):
    total_loss = 0
    for x, y in batches:
        optimizer.zero_grad()
        loss = criterion(model(x), y)
        loss.backward()
        optimizer.step()
        total_loss += loss  # expect: running-loss-keeps-graph
    return total_loss / len(batches)
