# Source: https://github.com/jiant-dev/jiant-dev/pull/89
# Pitfall: The task runner's per-batch update calls scheduler.step() and only then optimizer.step(),
# triggering the "lr_scheduler.step() before optimizer.step()" warning and skipping the first LR value.
# Reproduced in our own words, not the original code.
import torch


class TaskRunner:
    def __init__(self, model, optimizer, scheduler, max_grad_norm=1.0, device="cuda"):
        self.model = model
        self.optimizer = optimizer
        self.scheduler = scheduler
        self.max_grad_norm = max_grad_norm
        self.device = device

    def run_train_step(self, batch):
        self.model.train()
        batch = {k: v.to(self.device) for k, v in batch.items()}
        loss = self.model(**batch).loss
        loss.backward()
        torch.nn.utils.clip_grad_norm_(self.model.parameters(), self.max_grad_norm)
        self.scheduler.step()  # expect: scheduler-before-optimizer
        self.optimizer.step()
        self.optimizer.zero_grad()
        return loss.item()

    def run_train_epoch(self, loader):
        return [self.run_train_step(b) for b in loader]
