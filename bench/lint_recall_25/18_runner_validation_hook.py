"""Experiment runner with a periodic validation hook (config-driven, framework-style)."""
import logging

import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset

log = logging.getLogger(__name__)


class Model:
    def __init__(self, net, criterion, optimizer):
        self.net = net
        self.criterion = criterion
        self.optimizer = optimizer

    def step(self, inputs, targets):
        output = self.net(inputs)
        loss = self.criterion(output, targets)
        self.optimizer.zero_grad()
        loss.backward()
        self.optimizer.step()
        return loss.item()


class Runner:
    def __init__(self, model, train_loader, val_loader, num_steps=2000, val_every=500):
        self.model = model
        self.train_loader = train_loader
        self.val_loader = val_loader
        self.num_steps = num_steps
        self.val_every = val_every
        self.global_step = 0

    def validate(self):
        self.model.net.eval()  # expect: train-mode-not-restored
        correct, total = 0, 0
        with torch.no_grad():
            for x, y in self.val_loader:
                pred = self.model.net(x).argmax(dim=1)
                correct += (pred == y).sum().item()
                total += y.numel()
        return correct / max(total, 1)

    def setup_train(self):
        self.model.net.train()

    def train(self):
        self.setup_train()
        while self.global_step < self.num_steps:
            for x, y in self.train_loader:
                loss = self.model.step(x, y)
                self.global_step += 1
                if self.global_step % 100 == 0:
                    log.info("step %d loss %.4f", self.global_step, loss)
                if self.global_step % self.val_every == 0:
                    log.info("step %d val acc %.4f", self.global_step, self.validate())
                if self.global_step >= self.num_steps:
                    break


if __name__ == "__main__":
    net = nn.Sequential(nn.Linear(20, 64), nn.BatchNorm1d(64), nn.ReLU(), nn.Dropout(0.3), nn.Linear(64, 5))
    opt = torch.optim.SGD(net.parameters(), lr=0.05, momentum=0.9)
    x, y = torch.randn(3000, 20), torch.randint(0, 5, (3000,))
    runner = Runner(Model(net, nn.CrossEntropyLoss(), opt),
                    DataLoader(TensorDataset(x[:2500], y[:2500]), batch_size=64, shuffle=True),
                    DataLoader(TensorDataset(x[2500:], y[2500:]), batch_size=256))
    runner.train()
