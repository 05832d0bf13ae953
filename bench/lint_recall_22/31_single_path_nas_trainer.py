"""One-shot NAS: train a supernet by sampling a single path (one candidate op per layer) each step."""
import random

import torch
import torch.nn as nn
from torch.utils.data import DataLoader


class LayerChoice(nn.Module):
    def __init__(self, candidates):
        super().__init__()
        self.candidates = nn.ModuleList(candidates)
        self.sampled = 0

    def forward(self, x):
        return self.candidates[self.sampled](x)


class SinglePathTrainer:
    def __init__(self, model, loss, metrics, optimizer, num_epochs, dataset_train, dataset_valid,
                 batch_size=64, workers=4, device=None, log_frequency=50):
        self.model = model
        self.loss = loss
        self.metrics = metrics
        self.optimizer = optimizer
        self.num_epochs = num_epochs
        self.device = device or torch.device("cuda" if torch.cuda.is_available() else "cpu")
        self.model.to(self.device)
        self.log_frequency = log_frequency
        self.choices = [m for m in model.modules() if isinstance(m, LayerChoice)]
        self.train_loader = DataLoader(dataset_train,  # expect: train-loader-not-shuffled
                                       batch_size=batch_size,
                                       num_workers=workers,
                                       pin_memory=True)
        self.valid_loader = DataLoader(dataset_valid,
                                       batch_size=batch_size,
                                       num_workers=workers,
                                       pin_memory=True)

    def _resample(self):
        for choice in self.choices:
            choice.sampled = random.randrange(len(choice.candidates))

    def train_one_epoch(self, epoch):
        self.model.train()
        for step, (x, y) in enumerate(self.train_loader):
            x, y = x.to(self.device, non_blocking=True), y.to(self.device, non_blocking=True)
            self._resample()
            logits = self.model(x)
            loss = self.loss(logits, y)
            self.optimizer.zero_grad()
            loss.backward()
            self.optimizer.step()
            if step % self.log_frequency == 0:
                print(f"epoch {epoch + 1} step {step + 1}/{len(self.train_loader)} "
                      f"loss {loss.item():.4f} {self.metrics(logits, y)}")

    @torch.no_grad()
    def validate_one_epoch(self, epoch):
        self.model.eval()
        correct = total = 0
        for x, y in self.valid_loader:
            x, y = x.to(self.device, non_blocking=True), y.to(self.device, non_blocking=True)
            self._resample()
            correct += (self.model(x).argmax(1) == y).sum().item()
            total += y.numel()
        print(f"epoch {epoch + 1} valid acc {correct / max(total, 1):.4f}")

    def fit(self):
        for epoch in range(self.num_epochs):
            self.train_one_epoch(epoch)
            self.validate_one_epoch(epoch)
