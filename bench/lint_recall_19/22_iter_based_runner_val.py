"""A minimal iteration-based runner: alternates train and val workflows,
each step delegated to the model's train_step / val_step."""
import torch


class IterLoader:
    def __init__(self, dataloader):
        self._dataloader = dataloader
        self.iter_loader = iter(dataloader)
        self._epoch = 0

    def __next__(self):
        try:
            return next(self.iter_loader)
        except StopIteration:
            self._epoch += 1
            self.iter_loader = iter(self._dataloader)
            return next(self.iter_loader)


class IterBasedRunner:
    def __init__(self, model, optimizer, max_iters, logger=print):
        self.model = model
        self.optimizer = optimizer
        self.max_iters = max_iters
        self.logger = logger
        self._iter = 0

    def train(self, data_loader):
        self.model.train()
        data_batch = next(data_loader)
        outputs = self.model.train_step(data_batch, self.optimizer)
        self.optimizer.zero_grad()
        outputs["loss"].backward()
        self.optimizer.step()
        self._iter += 1
        return outputs

    def val(self, data_loader):
        self.model.eval()
        data_batch = next(data_loader)
        outputs = self.model.val_step(data_batch)  # expect: validation-in-train-mode
        if not isinstance(outputs, dict):
            raise TypeError("model.val_step() must return a dict")
        return outputs

    def run(self, data_loaders, workflow):
        iter_loaders = [IterLoader(x) for x in data_loaders]
        while self._iter < self.max_iters:
            for i, (mode, iters) in enumerate(workflow):
                step = getattr(self, mode)
                for _ in range(iters):
                    if mode == "train" and self._iter >= self.max_iters:
                        break
                    outputs = step(iter_loaders[i])
                    self.logger(mode, self._iter, {k: float(v) for k, v in outputs.get("log_vars", {}).items()})
