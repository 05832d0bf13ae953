"""Callback-driven runner: the optimizer callback clips gradients before stepping (fp16 engine)."""
from functools import partial

import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset


class AMPEngine:
    def __init__(self):
        self.device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
        self.scaler = torch.cuda.amp.GradScaler(enabled=self.device.type == "cuda")

    def autocast(self):
        return torch.autocast(self.device.type, dtype=torch.float16, enabled=self.device.type == "cuda")

    def backward(self, loss):
        self.scaler.scale(loss).backward()

    def optimizer_step(self, optimizer):
        self.scaler.step(optimizer)
        self.scaler.update()


class OptimizerCallback:
    def __init__(self, model, optimizer, engine, max_norm=1.0):
        self.model = model
        self.optimizer = optimizer
        self.engine = engine
        self.grad_clip_fn = partial(nn.utils.clip_grad_norm_, max_norm=max_norm)

    def on_batch_end(self, loss, batch_metrics):
        self.engine.backward(loss)
        norm = self.grad_clip_fn(self.model.parameters())  # expect: clip-before-unscale
        batch_metrics["gradient/norm"] = float(norm)
        self.engine.optimizer_step(self.optimizer)
        self.optimizer.zero_grad()


def run(epochs=3):
    engine = AMPEngine()
    model = nn.Sequential(nn.Linear(32, 64), nn.GELU(), nn.Linear(64, 4)).to(engine.device)
    optimizer = torch.optim.AdamW(model.parameters(), lr=1e-3)
    callback = OptimizerCallback(model, optimizer, engine)
    criterion = nn.CrossEntropyLoss()
    loader = DataLoader(TensorDataset(torch.randn(512, 32), torch.randint(0, 4, (512,))),
                        batch_size=32, shuffle=True)
    for epoch in range(epochs):
        model.train()
        for x, y in loader:
            x, y = x.to(engine.device), y.to(engine.device)
            metrics = {}
            with engine.autocast():
                loss = criterion(model(x), y)
            callback.on_batch_end(loss, metrics)
        print(epoch, loss.item(), metrics["gradient/norm"])


if __name__ == "__main__":
    run()
