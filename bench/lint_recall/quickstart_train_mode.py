# Source: https://github.com/pytorch/tutorials/issues/1624
# Pitfall: test() calls model.eval() and train() never calls model.train(), so from the second
# epoch on the model trains in eval mode (harmless only while it has no dropout/BN).
# Reproduced in our own words, not the original code.
import torch
from torch import nn


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.body = nn.Sequential(nn.Flatten(), nn.Linear(784, 512), nn.BatchNorm1d(512), nn.ReLU(),
                                  nn.Dropout(0.2), nn.Linear(512, 10))

    def forward(self, x):
        return self.body(x)


model = Net()
loss_fn = nn.CrossEntropyLoss()
optimizer = torch.optim.SGD(model.parameters(), lr=1e-3)


def train(dataloader):
    for X, y in dataloader:
        loss = loss_fn(model(X), y)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()


def test(dataloader):
    model.eval()  # expect: train-mode-not-restored
    with torch.no_grad():
        return sum(loss_fn(model(X), y).item() for X, y in dataloader)


def main(train_dl, test_dl):
    for t in range(5):
        train(train_dl)
        test(test_dl)
