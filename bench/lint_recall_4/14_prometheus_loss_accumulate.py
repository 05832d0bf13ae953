# Source: https://github.com/IBM/mi-prometheus/issues/111
# Pitfall: the worker sums the loss tensors of an episode into a statistics counter instead of
#   their values, so one more autograd graph stays referenced every cycle until OOM.
# Reproduced in our own words, not the original code.
import collections

import torch
import torch.nn as nn


class StatisticsCollector:
    def __init__(self):
        self.totals = collections.defaultdict(float)
        self.counts = collections.defaultdict(int)

    def add(self, key, value):
        self.totals[key] += value
        self.counts[key] += 1

    def mean(self, key):
        return self.totals[key] / max(self.counts[key], 1)


class SimpleCNN(nn.Module):
    def __init__(self, n_classes=10):
        super().__init__()
        self.conv = nn.Sequential(nn.Conv2d(1, 32, 3), nn.ReLU(), nn.MaxPool2d(2), nn.Flatten())
        self.fc = nn.Linear(32 * 13 * 13, n_classes)

    def forward(self, x):
        return self.fc(self.conv(x))


class Trainer:
    def __init__(self, model, loader, lr=1e-3):
        self.model = model
        self.loader = loader
        self.criterion = nn.CrossEntropyLoss()
        self.optimizer = torch.optim.Adam(model.parameters(), lr=lr)
        self.stats = StatisticsCollector()

    def episode(self, images, targets):
        self.optimizer.zero_grad()
        logits = self.model(images)
        loss = self.criterion(logits, targets)
        loss.backward()
        self.optimizer.step()
        return loss

    def run(self, n_epochs):
        self.model.train()
        for epoch in range(n_epochs):
            for images, targets in self.loader:
                loss = self.episode(images, targets)
                self.stats.add("loss", loss)  # expect: running-loss-keeps-graph
            print(f"epoch {epoch}: loss {float(self.stats.mean('loss')):.4f}")
