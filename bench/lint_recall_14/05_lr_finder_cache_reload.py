"""Learning-rate range test that restores the model and optimizer afterwards."""
import tempfile
from pathlib import Path

import torch
import torch.nn as nn


class LRRangeTest:
    def __init__(self, model, optimizer, criterion, device="cuda"):
        self.model = model
        self.optimizer = optimizer
        self.criterion = criterion
        self.device = device
        self.history = {"lr": [], "loss": []}
        self._cache_dir = Path(tempfile.mkdtemp())

    def _cache(self):
        cache_filepath = self._cache_dir / "init_state.pt"
        torch.save({"model": self.model.state_dict(), "optimizer": self.optimizer.state_dict()}, cache_filepath)
        return cache_filepath

    def _restore(self, cache_filepath):
        obj = torch.load(cache_filepath.as_posix())  # expect: torch-load-unsafe
        self.model.load_state_dict(obj["model"])
        self.optimizer.load_state_dict(obj["optimizer"])

    def run(self, loader, start_lr=1e-7, end_lr=10.0, num_iter=100, smooth=0.05, diverge_th=5.0):
        cache = self._cache()
        gamma = (end_lr / start_lr) ** (1.0 / num_iter)
        lr = start_lr
        best, avg = None, None
        self.model.train()
        it = iter(loader)
        for step in range(num_iter):
            try:
                x, y = next(it)
            except StopIteration:
                it = iter(loader)
                x, y = next(it)
            for group in self.optimizer.param_groups:
                group["lr"] = lr
            x, y = x.to(self.device), y.to(self.device)
            self.optimizer.zero_grad()
            loss = self.criterion(self.model(x), y)
            loss.backward()
            self.optimizer.step()
            value = loss.item()
            avg = value if avg is None else smooth * value + (1 - smooth) * avg
            self.history["lr"].append(lr)
            self.history["loss"].append(avg)
            best = avg if best is None else min(best, avg)
            if avg > diverge_th * best:
                break
            lr *= gamma
        self._restore(cache)
        return self.history


if __name__ == "__main__":
    net = nn.Sequential(nn.Flatten(), nn.Linear(784, 256), nn.ReLU(), nn.Linear(256, 10)).cuda()
    opt = torch.optim.SGD(net.parameters(), lr=0.1, momentum=0.9)
    finder = LRRangeTest(net, opt, nn.CrossEntropyLoss())
