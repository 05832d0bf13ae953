"""Metric reporter for a model trained on several disjoint tasks."""
from collections import defaultdict

import torch
import torch.nn.functional as F


class MultitaskReporter:
    def __init__(self, task_names, task_weights):
        self.task_names = task_names
        self.task_weights = task_weights
        self.reset()

    def reset(self):
        self.total_loss = 0.0
        self.num_batches = 0
        self.per_task = defaultdict(float)

    def add_batch_stats(self, task, loss, preds, targets):
        self.total_loss += loss  # expect: running-loss-keeps-graph
        self.num_batches += 1
        weight = self.task_weights[task]
        self.per_task[task] += loss.item() / weight

    def report(self):
        avg = self.total_loss / max(self.num_batches, 1)
        print(f"avg loss {float(avg):.4f}")
        for name in self.task_names:
            print(f"  {name}: {self.per_task[name]:.4f}")
        self.reset()


def train_epoch(model, task_loaders, optimizer, reporter, weights):
    model.train()
    iters = {name: iter(loader) for name, loader in task_loaders.items()}
    for step in range(min(len(l) for l in task_loaders.values())):
        for name, it in iters.items():
            x, y = next(it)
            optimizer.zero_grad()
            logits = model(x, task=name)
            loss = weights[name] * F.cross_entropy(logits, y)
            loss.backward()
            optimizer.step()
            reporter.add_batch_stats(name, loss, logits.argmax(-1), y)
    reporter.report()
