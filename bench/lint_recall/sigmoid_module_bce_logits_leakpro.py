# Source: https://github.com/aidotse/LeakPro/issues/229
# Pitfall: the tabular model ends in nn.Sigmoid() and the handler trains it with
# BCEWithLogitsLoss (a redundant sigmoid).
# Reproduced in our own words, not the original code.
import torch
from torch import nn

model = nn.Sequential(nn.Linear(14, 64), nn.ReLU(), nn.Linear(64, 1), nn.Sigmoid())
criterion = nn.BCEWithLogitsLoss()
optimizer = torch.optim.SGD(model.parameters(), lr=0.01)


def train(loader, epochs):
    model.train()
    for _ in range(epochs):
        for x, y in loader:
            optimizer.zero_grad()
            loss = criterion(model(x).squeeze(1), y.float())  # expect: sigmoid-before-bce-with-logits
            loss.backward()
            optimizer.step()
