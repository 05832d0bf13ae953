# Source: https://github.com/catalyst-team/catalyst/issues/1319
# Pitfall: The optimizer callback clips gradients right after the AMP-scaled backward, without
# scaler.unscale_(); the threshold is compared with gradients multiplied by the loss scale.
# Reproduced in our own words, not the original code.
import torch
from torch.cuda.amp import GradScaler, autocast


class AmpOptimizerStep:
    def __init__(self, model, optimizer, max_norm=1.0, accumulation_steps=1):
        self.model = model
        self.optimizer = optimizer
        self.scaler = GradScaler()
        self.max_norm = max_norm
        self.accumulation_steps = accumulation_steps
        self.counter = 0

    def on_batch_end(self, loss):
        self.counter += 1
        self.scaler.scale(loss / self.accumulation_steps).backward()
        torch.nn.utils.clip_grad_norm_(self.model.parameters(), self.max_norm)  # expect: clip-before-unscale
        if self.counter % self.accumulation_steps == 0:
            self.scaler.step(self.optimizer)
            self.scaler.update()
            self.optimizer.zero_grad()


def run(model, loader, criterion, optimizer, device):
    step = AmpOptimizerStep(model, optimizer, max_norm=5.0)
    model.train()
    for x, y in loader:
        x, y = x.to(device), y.to(device)
        with autocast():
            loss = criterion(model(x), y)
        step.on_batch_end(loss)
