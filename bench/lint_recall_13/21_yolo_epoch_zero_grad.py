"""Detector trainer with gradient accumulation toward a nominal batch size."""
import math

import torch


class DetectionTrainer:
    def __init__(self, model, optimizer, nominal_batch_size=64, batch_size=16):
        self.model = model
        self.optimizer = optimizer
        self.accumulate = max(round(nominal_batch_size / batch_size), 1)

    def optimizer_step(self):
        torch.nn.utils.clip_grad_norm_(self.model.parameters(), max_norm=10.0)
        self.optimizer.step()
        self.optimizer.zero_grad()

    def train(self, train_loader, epochs):
        last_opt_step = -1
        nb = len(train_loader)
        for epoch in range(epochs):
            self.model.train()
            self.optimizer.zero_grad()  # expect: grad-cleared-before-step
            for i, (imgs, targets) in enumerate(train_loader):
                ni = i + nb * epoch
                loss = self.model(imgs, targets) / self.accumulate
                loss.backward()
                if ni - last_opt_step >= self.accumulate:
                    self.optimizer_step()
                    last_opt_step = ni
            print(f"epoch {epoch} done, {math.ceil(nb / self.accumulate)} optimizer steps")
