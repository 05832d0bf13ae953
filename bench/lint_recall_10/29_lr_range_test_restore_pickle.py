# Source: https://github.com/Lightning-AI/pytorch-lightning/commit/fe6b1cc4e80ae0396e2e404c16e6b6968ad5437e
# Pitfall: the learning-rate range test snapshots the model and optimizer to a file and restores them with a
#   plain torch.load, i.e. full unpickling of whatever file sits at that path (the fix threads weights_only through).
# Reproduced in our own words, not the original code.
import math
import os
import tempfile

import torch


class LRRangeTest:
    def __init__(self, model, optimizer, criterion, device="cuda", start_lr=1e-7, end_lr=1.0, num_steps=100):
        self.model = model
        self.optimizer = optimizer
        self.criterion = criterion
        self.device = device
        self.start_lr = start_lr
        self.end_lr = end_lr
        self.num_steps = num_steps
        self.ckpt_path = os.path.join(tempfile.gettempdir(), ".lr_find_snapshot.pt")

    def _snapshot(self):
        torch.save({"model": self.model.state_dict(), "optim": self.optimizer.state_dict()}, self.ckpt_path)

    def _restore(self):
        state = torch.load(self.ckpt_path, map_location=self.device)  # expect: torch-load-unsafe
        self.model.load_state_dict(state["model"])
        self.optimizer.load_state_dict(state["optim"])
        os.remove(self.ckpt_path)

    def run(self, loader):
        self._snapshot()
        gamma = (self.end_lr / self.start_lr) ** (1 / self.num_steps)
        lrs, losses, best = [], [], math.inf
        lr = self.start_lr
        self.model.train()
        batches = iter(loader)
        for _ in range(self.num_steps):
            try:
                x, y = next(batches)
            except StopIteration:
                batches = iter(loader)
                x, y = next(batches)
            for group in self.optimizer.param_groups:
                group["lr"] = lr
            x, y = x.to(self.device), y.to(self.device)
            loss = self.criterion(self.model(x), y)
            self.optimizer.zero_grad()
            loss.backward()
            self.optimizer.step()
            lrs.append(lr)
            losses.append(loss.item())
            best = min(best, losses[-1])
            if losses[-1] > 4 * best:
                break
            lr *= gamma
        self._restore()
        return lrs, losses
