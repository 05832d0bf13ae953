"""A tiny metric framework: running average of a loss over an evaluation run."""
import torch
from torch import nn
from torch.autograd import Variable


class Metric:
    def reset(self):
        raise NotImplementedError

    def update(self, output):
        raise NotImplementedError

    def compute(self):
        raise NotImplementedError


class Loss(Metric):
    def __init__(self, loss_fn):
        self._loss_fn = loss_fn
        self.reset()

    def reset(self):
        self._sum = 0.0
        self._num_examples = 0

    def update(self, output):
        y_pred, y = output
        average_loss = self._loss_fn(Variable(y_pred, volatile=True), Variable(y, volatile=True))  # expect: volatile-variable
        self._sum += average_loss.item() * y.shape[0]
        self._num_examples += y.shape[0]

    def compute(self):
        if self._num_examples == 0:
            raise RuntimeError("Loss must have at least one example before it can be computed")
        return self._sum / self._num_examples


def run_evaluation(model, loader):
    metric = Loss(nn.CrossEntropyLoss())
    model.eval()
    for x, y in loader:
        with torch.no_grad():
            y_pred = model(x)
        metric.update((y_pred, y))
    return metric.compute()
