"""A small continual-learning strategy: train on each experience, evaluate on the whole test stream."""
from collections import defaultdict

import torch
import torch.nn as nn
from torch.utils.data import DataLoader


class NaiveStrategy:
    def __init__(self, model, optimizer, criterion=None, train_mb_size=32, train_epochs=1,
                 eval_mb_size=128, device="cpu"):
        self.model = model.to(device)
        self.optimizer = optimizer
        self._criterion = criterion or nn.CrossEntropyLoss()
        self.train_mb_size, self.train_epochs, self.eval_mb_size = train_mb_size, train_epochs, eval_mb_size
        self.device = device
        self.metrics = defaultdict(list)

    def train(self, experience, eval_streams=None):
        self.model.train()
        loader = DataLoader(experience, batch_size=self.train_mb_size, shuffle=True)
        for epoch in range(self.train_epochs):
            for x, y in loader:
                x, y = x.to(self.device), y.to(self.device)
                self.optimizer.zero_grad()
                loss = self._criterion(self.model(x), y)
                loss.backward()
                self.optimizer.step()
                self.metrics["train_loss"].append(loss.item())
            if eval_streams:
                self.eval(eval_streams)
                self.model.train()

    def eval(self, exp_list):
        self.model.eval()
        results = {}
        for i, exp in enumerate(exp_list):
            correct, seen = 0, 0
            for x, y in DataLoader(exp, batch_size=self.eval_mb_size):
                x, y = x.to(self.device), y.to(self.device)
                logits = self.model(x)  # expect: validation-in-train-mode
                correct += (logits.argmax(1) == y).sum().item()
                seen += y.numel()
            results[f"acc_exp{i}"] = correct / max(seen, 1)
        self.metrics["eval"].append(results)
        return results
