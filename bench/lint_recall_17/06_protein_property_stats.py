"""Per-task target statistics used to normalise regression heads in property prediction."""
import math

import torch
from torch import nn


class PropertyPrediction(nn.Module):
    def __init__(self, encoder, tasks, hidden=256):
        super().__init__()
        self.encoder = encoder
        self.tasks = tasks
        self.head = nn.Sequential(nn.Linear(encoder.output_dim, hidden), nn.ReLU(), nn.Linear(hidden, len(tasks)))
        self.register_buffer("mean", torch.zeros(len(tasks)))
        self.register_buffer("std", torch.ones(len(tasks)))

    def preprocess(self, train_set):
        values = {task: [] for task in self.tasks}
        for sample in train_set:
            for task in self.tasks:
                if sample[task] != math.nan:  # expect: nan-equality-check
                    values[task].append(sample[task])
        means, stds = [], []
        for task in self.tasks:
            column = torch.tensor(values[task], dtype=torch.float)
            means.append(column.mean())
            stds.append(column.std())
        self.mean = torch.stack(means)
        self.std = torch.stack(stds)

    def forward(self, graph):
        return self.head(self.encoder(graph))

    def loss(self, graph, targets):
        pred = self(graph)
        labeled = ~torch.isnan(targets)
        norm_target = (torch.nan_to_num(targets) - self.mean) / self.std
        err = (pred - norm_target) ** 2
        return (err * labeled).sum() / labeled.sum().clamp(min=1)
