"""Perplexity metric aggregated over batches; the trainer reports it for train and dev."""
import math

import torch
from torch import nn


class Perplexity:
    def __init__(self):
        self.entropy = nn.CrossEntropyLoss()

    def aggregate(self, state, pred, target):
        if not state:
            state["historic_score"] = []
        state["historic_score"].append(self.entropy(pred, target))  # expect: running-loss-keeps-graph
        return state

    def finalize(self, state):
        if not state:
            return float("nan")
        return math.exp(torch.stack(state["historic_score"]).mean().item())


def train_epoch(model, loader, optimizer, metric):
    model.train()
    state = {}
    for tokens, targets in loader:
        optimizer.zero_grad()
        logits = model(tokens).view(-1, model.vocab_size)
        flat_targets = targets.view(-1)
        loss = nn.functional.cross_entropy(logits, flat_targets)
        state = metric.aggregate(state, logits, flat_targets)
        loss.backward()
        optimizer.step()
    return metric.finalize(state)
