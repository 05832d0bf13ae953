"""Gradient-descent trainer with optional AMP and value clipping of gradients."""
from typing import Optional

import torch
import torch.nn as nn


class GradientDescentTrainer:
    def __init__(self, model: nn.Module, optimizer: torch.optim.Optimizer, data_loader,
                 grad_clipping: Optional[float] = None, use_amp: bool = True,
                 num_gradient_accumulation_steps: int = 1):
        self.model = model
        self.optimizer = optimizer
        self.data_loader = data_loader
        self._grad_clipping = grad_clipping
        self._use_amp = use_amp and torch.cuda.is_available()
        self._scaler = torch.cuda.amp.GradScaler() if self._use_amp else None
        self._accum = num_gradient_accumulation_steps

    def clip_gradient(self):
        if self._grad_clipping is not None:
            torch.nn.utils.clip_grad_value_(  # expect: clip-before-unscale
                [p for p in self.model.parameters() if p.grad is not None], self._grad_clipping
            )

    def _train_epoch(self, epoch: int) -> float:
        self.model.train()
        train_loss = 0.0
        batches = list(self.data_loader)
        batch_groups = [batches[i:i + self._accum] for i in range(0, len(batches), self._accum)]
        for batch_group in batch_groups:
            self.optimizer.zero_grad()
            batch_loss = 0.0
            for batch in batch_group:
                with torch.autocast("cuda", enabled=self._use_amp):
                    output = self.model(**batch)
                    loss = output["loss"] / len(batch_group)
                batch_loss += loss.item()
                if self._scaler is not None:
                    self._scaler.scale(loss).backward()
                else:
                    loss.backward()
            train_loss += batch_loss

            self.clip_gradient()

            if self._scaler is not None:
                self._scaler.step(self.optimizer)
                self._scaler.update()
            else:
                self.optimizer.step()
        return train_loss / max(len(batch_groups), 1)

    def train(self, num_epochs: int):
        for epoch in range(num_epochs):
            loss = self._train_epoch(epoch)
            print(f"epoch {epoch}: training loss {loss:.4f}")
