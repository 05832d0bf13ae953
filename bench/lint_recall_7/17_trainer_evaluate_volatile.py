# Source: https://github.com/nitrain/nitrain/issues/89
# Pitfall: the trainer's evaluate() still wraps inputs in Variable(..., volatile=True); since
#   PyTorch 0.4 the flag does nothing, so evaluation records a full autograd graph and wastes memory.
# Reproduced in our own words, not the original code.
import math

import torch
import torch.nn as nn
from torch.autograd import Variable


class ModuleTrainer:
    def __init__(self, model, loss_fn, optimizer):
        self.model = model
        self._loss_fn = loss_fn
        self._optimizer = optimizer

    def fit_batch(self, x, y):
        self.model.train(mode=True)
        self._optimizer.zero_grad()
        loss = self._loss_fn(self.model(x), y)
        loss.backward()
        self._optimizer.step()
        return loss.item()

    def evaluate(self, inputs, targets, batch_size=32):
        self.model.train(mode=False)
        num_batches = int(math.ceil(inputs.size(0) / batch_size))
        total = 0.0
        for batch_idx in range(num_batches):
            lo, hi = batch_idx * batch_size, (batch_idx + 1) * batch_size
            input_batch = Variable(inputs[lo:hi], volatile=True)  # expect: volatile-variable
            target_batch = targets[lo:hi]
            output_batch = self.model(input_batch)
            total += self._loss_fn(output_batch, target_batch).item() * input_batch.size(0)
        self.model.train(mode=True)
        return total / inputs.size(0)


if __name__ == "__main__":
    net = nn.Sequential(nn.Conv2d(1, 16, 3), nn.ReLU(), nn.AdaptiveAvgPool2d(1), nn.Flatten(),
                        nn.Linear(16, 10))
    trainer = ModuleTrainer(net, nn.CrossEntropyLoss(), torch.optim.Adam(net.parameters(), 1e-3))
    x_train, y_train = torch.randn(512, 1, 28, 28), torch.randint(0, 10, (512,))
    x_val, y_val = torch.randn(256, 1, 28, 28), torch.randint(0, 10, (256,))
    for epoch in range(3):
        for idx in torch.randperm(512).split(64):
            trainer.fit_batch(x_train[idx], y_train[idx])
        print(epoch, trainer.evaluate(x_val, y_val))
