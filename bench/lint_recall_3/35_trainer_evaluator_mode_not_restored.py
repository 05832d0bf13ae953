# Source: https://github.com/pfnet/pytorch-pfn-extras/issues/688
# Pitfall: The handler switches the model to eval mode when an in-epoch evaluation starts, but the
# validation-end hook does not restore train mode; iterations after a mid-epoch evaluation train in eval mode.
# Reproduced in our own words, not the original code.
import torch


class TrainLogic:
    def __init__(self, model, optimizer, loss_fn, eval_every):
        self.model = model
        self.optimizer = optimizer
        self.loss_fn = loss_fn
        self.eval_every = eval_every

    def train_epoch_begin(self):
        self.model.train()

    def train_step(self, x, y):
        self.optimizer.zero_grad()
        loss = self.loss_fn(self.model(x), y)
        loss.backward()
        self.optimizer.step()
        return loss.item()

    def validation(self, val_loader):
        self.model.eval()  # expect: train-mode-not-restored
        total, n = 0.0, 0
        with torch.no_grad():
            for x, y in val_loader:
                total += self.loss_fn(self.model(x), y).item() * len(x)
                n += len(x)
        return total / max(n, 1)

    def run_epoch(self, train_loader, val_loader):
        self.train_epoch_begin()
        for it, (x, y) in enumerate(train_loader):
            self.train_step(x, y)
            if (it + 1) % self.eval_every == 0:
                print("val", self.validation(val_loader))
