"""Softmax regression on Fashion-MNIST-sized data with a pluggable updater."""
import torch
from torch import nn


class Accumulator:
    def __init__(self, n):
        self.data = [0.0] * n

    def add(self, *args):
        self.data = [a + float(b) for a, b in zip(self.data, args)]

    def __getitem__(self, idx):
        return self.data[idx]


def accuracy(y_hat, y):
    if y_hat.dim() > 1 and y_hat.shape[1] > 1:
        y_hat = y_hat.argmax(dim=1)
    return float((y_hat.type(y.dtype) == y).sum())


def train_epoch_ch3(net, train_iter, loss, updater):
    """Train for one epoch; `updater` is either a torch optimizer or a custom sgd function."""
    if isinstance(net, nn.Module):
        net.train()
    metric = Accumulator(3)
    for X, y in train_iter:
        y_hat = net(X)
        l = loss(y_hat, y)
        if isinstance(updater, torch.optim.Optimizer):
            l.mean().backward()  # expect: gradients-never-cleared
            updater.step()
        else:
            l.sum().backward()
            updater(X.shape[0])
        metric.add(float(l.sum()), accuracy(y_hat, y), y.numel())
    return metric[0] / metric[2], metric[1] / metric[2]


def evaluate_accuracy(net, data_iter):
    net.eval()
    metric = Accumulator(2)
    with torch.no_grad():
        for X, y in data_iter:
            metric.add(accuracy(net(X), y), y.numel())
    return metric[0] / metric[1]


def train_ch3(net, train_iter, test_iter, loss, num_epochs, updater):
    for epoch in range(num_epochs):
        train_loss, train_acc = train_epoch_ch3(net, train_iter, loss, updater)
        test_acc = evaluate_accuracy(net, test_iter)
        print(f"epoch {epoch + 1}: loss {train_loss:.3f}, train acc {train_acc:.3f}, test acc {test_acc:.3f}")


if __name__ == "__main__":
    net = nn.Sequential(nn.Flatten(), nn.Linear(784, 10))
    loss = nn.CrossEntropyLoss(reduction="none")
    trainer = torch.optim.SGD(net.parameters(), lr=0.1)
    data = [(torch.randn(256, 1, 28, 28), torch.randint(0, 10, (256,))) for _ in range(10)]
    train_ch3(net, data, data[:2], loss, 3, trainer)
