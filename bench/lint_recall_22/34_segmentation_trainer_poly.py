import time

import torch
from torch.optim.lr_scheduler import _LRScheduler
from tqdm import tqdm


class Poly(_LRScheduler):
    """Polynomial decay applied per iteration; `epoch` selects the position in the schedule."""

    def __init__(self, optimizer, num_epochs, iters_per_epoch, warmup_epochs=0, last_epoch=-1):
        self.iters_per_epoch = iters_per_epoch
        self.cur_iter = 0
        self.N = num_epochs * iters_per_epoch
        self.warmup_iters = warmup_epochs * iters_per_epoch
        super().__init__(optimizer, last_epoch)

    def get_lr(self):
        T = self.last_epoch * self.iters_per_epoch + self.cur_iter
        factor = pow(1 - T / max(self.N, 1), 0.9)
        if self.warmup_iters > 0 and T < self.warmup_iters:
            factor = T / self.warmup_iters
        self.cur_iter %= self.iters_per_epoch
        self.cur_iter += 1
        return [base_lr * factor for base_lr in self.base_lrs]


class Trainer:
    def __init__(self, model, loss, optimizer, train_loader, num_classes, epochs, device="cuda", log_step=20):
        self.model = model.to(device)
        self.loss = loss
        self.optimizer = optimizer
        self.train_loader = train_loader
        self.num_classes = num_classes
        self.epochs = epochs
        self.device = device
        self.log_step = log_step
        self.lr_scheduler = Poly(optimizer, epochs, len(train_loader))

    def _train_epoch(self, epoch):
        self.model.train()
        tic = time.time()
        total = 0.0
        tbar = tqdm(self.train_loader, ncols=130)
        for batch_idx, (data, target) in enumerate(tbar):
            data, target = data.to(self.device), target.to(self.device)
            self.lr_scheduler.step(epoch=epoch - 1)  # expect: scheduler-before-optimizer

            self.optimizer.zero_grad()
            output = self.model(data)
            if isinstance(output, tuple):
                loss = self.loss(output[0], target) + 0.4 * self.loss(output[1], target)
                output = output[0]
            else:
                loss = self.loss(output, target)
            loss.backward()
            self.optimizer.step()
            total += loss.item()

            if batch_idx % self.log_step == 0:
                tbar.set_description(f"TRAIN ({epoch}) | Loss: {total / (batch_idx + 1):.3f} "
                                     f"| {time.time() - tic:.1f}s")
        return total / max(len(self.train_loader), 1)

    def train(self):
        for epoch in range(1, self.epochs + 1):
            self._train_epoch(epoch)
