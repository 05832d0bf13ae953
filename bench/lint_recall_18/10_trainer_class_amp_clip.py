"""A small gradient-descent trainer class with optional fp16 (AMP) and gradient-norm rescaling."""
from typing import Iterable, Optional

import torch
import torch.nn as nn
from torch.cuda import amp


class GradientDescentTrainer:
    def __init__(self, model: nn.Module, optimizer: torch.optim.Optimizer, data_loader: Iterable,
                 grad_norm: Optional[float] = 5.0, use_amp: bool = True, num_epochs: int = 20):
        self.model = model
        self.optimizer = optimizer
        self.data_loader = data_loader
        self._grad_norm = grad_norm
        self._use_amp = use_amp
        self._scaler = amp.GradScaler() if use_amp else None
        self.num_epochs = num_epochs
        self.device = next(model.parameters()).device

    def rescale_gradients(self) -> Optional[float]:
        if self._grad_norm is None:
            return None
        params = [p for p in self.model.parameters() if p.grad is not None]
        return torch.nn.utils.clip_grad_norm_(params, self._grad_norm).item()  # expect: clip-before-unscale

    def batch_outputs(self, batch):
        inputs = {k: v.to(self.device) for k, v in batch.items()}
        labels = inputs.pop("labels")
        logits = self.model(**inputs)
        return nn.functional.cross_entropy(logits, labels)

    def _train_epoch(self, epoch: int) -> float:
        self.model.train()
        total, batches = 0.0, 0
        for batch in self.data_loader:
            self.optimizer.zero_grad()
            with amp.autocast(enabled=self._use_amp):
                loss = self.batch_outputs(batch)
            if self._scaler is not None:
                self._scaler.scale(loss).backward()
            else:
                loss.backward()
            batch_grad_norm = self.rescale_gradients()
            if self._scaler is not None:
                self._scaler.step(self.optimizer)
                self._scaler.update()
            else:
                self.optimizer.step()
            total += loss.item()
            batches += 1
            if batches % 100 == 0:
                print(f"epoch {epoch} batch {batches}: loss {total / batches:.4f} grad_norm {batch_grad_norm}")
        return total / max(batches, 1)

    def train(self):
        history = []
        for epoch in range(self.num_epochs):
            history.append(self._train_epoch(epoch))
        return history
