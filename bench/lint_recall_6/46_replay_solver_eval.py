# Source: https://github.com/kuc2477/pytorch-deep-generative-replay/issues/8
# Pitfall: the periodic precision check on the solver runs it under no_grad but still in training mode, so
#   dropout/batch-norm act as in training while the test accuracy is measured between tasks.
# Reproduced in our own words, not the original code.
import torch
import torch.nn as nn
from torch.utils.data import DataLoader


class Solver(nn.Module):
    def __init__(self, n_in=784, n_classes=10):
        super().__init__()
        self.layers = nn.Sequential(
            nn.Linear(n_in, 400), nn.BatchNorm1d(400), nn.ReLU(), nn.Dropout(0.2),
            nn.Linear(400, 400), nn.BatchNorm1d(400), nn.ReLU(), nn.Dropout(0.2),
            nn.Linear(400, n_classes),
        )

    def forward(self, x):
        return self.layers(x.flatten(1))


def validate(solver, dataset, test_size=1024, batch_size=32):
    loader = DataLoader(dataset, batch_size=batch_size, shuffle=False)
    correct, total = 0, 0
    with torch.no_grad():
        for x, y in loader:
            scores = solver(x)  # expect: validation-in-train-mode
            correct += (scores.argmax(dim=1) == y).sum().item()
            total += y.size(0)
            if total >= test_size:
                break
    return correct / max(total, 1)


def train_task(solver, dataset, test_sets, iterations=1000, batch_size=32):
    optimizer = torch.optim.Adam(solver.parameters(), lr=1e-3)
    criterion = nn.CrossEntropyLoss()
    loader = DataLoader(dataset, batch_size=batch_size, shuffle=True, drop_last=True)
    solver.train()
    for it, (x, y) in enumerate(loader):
        optimizer.zero_grad()
        loss = criterion(solver(x), y)
        loss.backward()
        optimizer.step()
        if it % 100 == 0:
            print([validate(solver, ds) for ds in test_sets])
        if it >= iterations:
            break
