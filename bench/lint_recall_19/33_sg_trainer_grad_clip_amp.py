"""Training-loop core of a detection/classification trainer with mixed precision,
gradient accumulation ("batch_accumulate") and optional gradient clipping."""
import torch
from torch.cuda.amp import GradScaler, autocast


class Trainer:
    def __init__(self, net, criterion, optimizer, train_loader, mixed_precision=True,
                 batch_accumulate=1, clip_grad_norm=None, device="cuda"):
        self.net = net.to(device)
        self.criterion = criterion
        self.optimizer = optimizer
        self.train_loader = train_loader
        self.scaler = GradScaler(enabled=mixed_precision)
        self.mixed_precision = mixed_precision
        self.batch_accumulate = batch_accumulate
        self.clip_grad_norm = clip_grad_norm
        self.device = device

    def _backward_step(self, loss, batch_idx):
        self.scaler.scale(loss).backward()
        if (batch_idx + 1) % self.batch_accumulate == 0:
            if self.clip_grad_norm is not None:
                torch.nn.utils.clip_grad_norm_(self.net.parameters(), self.clip_grad_norm)  # expect: clip-before-unscale
            self.scaler.step(self.optimizer)
            self.scaler.update()
            self.optimizer.zero_grad()

    def train_epoch(self, epoch):
        self.net.train()
        total = 0.0
        for batch_idx, (inputs, targets) in enumerate(self.train_loader):
            inputs, targets = inputs.to(self.device), targets.to(self.device)
            with autocast(enabled=self.mixed_precision):
                outputs = self.net(inputs)
                loss = self.criterion(outputs, targets) / self.batch_accumulate
            self._backward_step(loss, batch_idx)
            total += loss.item() * self.batch_accumulate
        print(f"epoch {epoch}: mean loss {total / len(self.train_loader):.4f}")

    def fit(self, epochs):
        for epoch in range(epochs):
            self.train_epoch(epoch)
