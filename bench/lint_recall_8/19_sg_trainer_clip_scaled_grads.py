# Source: https://github.com/Deci-AI/super-gradients/pull/653
# Pitfall: with AMP the trainer clips the gradient norm right after scaler.scale(loss).backward(),
# while the gradients are still multiplied by the loss scale, so the clip threshold means nothing.
# Reproduced in our own words, not the original code.
import torch
import torch.nn as nn
from torch.cuda.amp import GradScaler, autocast
from torch.utils.data import DataLoader, TensorDataset


class TrainParams:
    def __init__(self, lr=0.01, clip_grad_norm=5.0, batch_accumulate=2, mixed_precision=True, epochs=2):
        self.lr = lr
        self.clip_grad_norm = clip_grad_norm
        self.batch_accumulate = batch_accumulate
        self.mixed_precision = mixed_precision
        self.epochs = epochs


class Trainer:
    def __init__(self, net, params, device="cuda"):
        self.net = net.to(device)
        self.device = device
        self.params = params
        self.criterion = nn.CrossEntropyLoss()
        self.optimizer = torch.optim.SGD(self.net.parameters(), lr=params.lr, momentum=0.9)
        self.scaler = GradScaler(enabled=params.mixed_precision)

    def _backward_step(self, loss, batch_idx):
        self.scaler.scale(loss / self.params.batch_accumulate).backward()
        if (batch_idx + 1) % self.params.batch_accumulate == 0:
            if self.params.clip_grad_norm:
                torch.nn.utils.clip_grad_norm_(self.net.parameters(), self.params.clip_grad_norm)  # expect: clip-before-unscale
            self.scaler.step(self.optimizer)
            self.scaler.update()
            self.optimizer.zero_grad()

    def train_epoch(self, loader):
        self.net.train()
        total = 0.0
        for batch_idx, (inputs, targets) in enumerate(loader):
            inputs = inputs.to(self.device, non_blocking=True)
            targets = targets.to(self.device, non_blocking=True)
            with autocast(enabled=self.params.mixed_precision):
                loss = self.criterion(self.net(inputs), targets)
            self._backward_step(loss, batch_idx)
            total += loss.item()
        return total / len(loader)

    def train(self, loader):
        for epoch in range(self.params.epochs):
            print(epoch, self.train_epoch(loader))


if __name__ == "__main__":
    data = TensorDataset(torch.randn(128, 3, 32, 32), torch.randint(0, 10, (128,)))
    loader = DataLoader(data, batch_size=16, shuffle=True, num_workers=2, pin_memory=True)
    net = nn.Sequential(nn.Conv2d(3, 16, 3, padding=1), nn.ReLU(), nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Linear(16, 10))
    Trainer(net, TrainParams()).train(loader)
