# Source: https://github.com/microsoft/nni/pull/4696
# Pitfall: the single-path one-shot NAS trainer builds its training DataLoader without
#   shuffle=True, so supernet weights are trained on a fixed batch order every epoch.
# Reproduced in our own words, not the original code.
import random

import torch
import torch.nn as nn
from torch.utils.data import DataLoader


class SinglePathTrainer:
    def __init__(self, model, loss, metrics, optimizer, num_epochs, dataset_train, dataset_valid,
                 batch_size=64, workers=4, device=None, log_frequency=50):
        self.model = model
        self.loss = loss
        self.metrics = metrics
        self.optimizer = optimizer
        self.num_epochs = num_epochs
        self.device = device or torch.device("cuda" if torch.cuda.is_available() else "cpu")
        self.log_frequency = log_frequency
        self.model.to(self.device)
        self.train_loader = DataLoader(dataset_train, batch_size=batch_size, num_workers=workers)  # expect: train-loader-not-shuffled
        self.valid_loader = DataLoader(dataset_valid, batch_size=batch_size, num_workers=workers)

    def _sample_path(self):
        for module in self.model.modules():
            if hasattr(module, "choices"):
                module.active = random.randrange(len(module.choices))

    def _train_one_epoch(self, epoch):
        self.model.train()
        for step, (x, y) in enumerate(self.train_loader):
            x, y = x.to(self.device), y.to(self.device)
            self._sample_path()
            self.optimizer.zero_grad()
            logits = self.model(x)
            loss = self.loss(logits, y)
            loss.backward()
            self.optimizer.step()
            if step % self.log_frequency == 0:
                print(f"epoch {epoch} step {step}: loss {loss.item():.4f}")

    def _validate_one_epoch(self, epoch):
        self.model.eval()
        scores = []
        with torch.no_grad():
            for x, y in self.valid_loader:
                x, y = x.to(self.device), y.to(self.device)
                self._sample_path()
                scores.append(self.metrics(self.model(x), y))
        return scores

    def fit(self):
        for epoch in range(self.num_epochs):
            self._train_one_epoch(epoch)
            self._validate_one_epoch(epoch)
