# Source: https://github.com/pytorch/examples/pull/721
# Pitfall: the example network already ends in log_softmax, and the training code scores it with
#          nn.CrossEntropyLoss, which applies log_softmax again; the fix removed the double application.
# Reproduced in our own words, not the original code.
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset


class DigitNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv1 = nn.Conv2d(1, 16, 5)
        self.conv2 = nn.Conv2d(16, 32, 5)
        self.fc = nn.Linear(32 * 4 * 4, 10)

    def forward(self, x):
        x = F.max_pool2d(F.relu(self.conv1(x)), 2)
        x = F.max_pool2d(F.relu(self.conv2(x)), 2)
        return F.log_softmax(self.fc(torch.flatten(x, 1)), dim=1)


def train_epoch(model, device, loader, optimizer, criterion):
    model.train()
    for batch_idx, (data, target) in enumerate(loader):
        data, target = data.to(device), target.to(device)
        optimizer.zero_grad()
        output = model(data)
        loss = criterion(output, target)  # expect: softmax-before-cross-entropy
        loss.backward()
        optimizer.step()
        if batch_idx % 10 == 0:
            print(f"batch {batch_idx} loss {loss.item():.4f}")


def evaluate(model, device, loader):
    model.eval()
    correct = 0
    with torch.no_grad():
        for data, target in loader:
            data, target = data.to(device), target.to(device)
            correct += (model(data).argmax(dim=1) == target).sum().item()
    return correct / len(loader.dataset)


if __name__ == "__main__":
    dev = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    xs, ys = torch.randn(512, 1, 28, 28), torch.randint(0, 10, (512,))
    train_loader = DataLoader(TensorDataset(xs[:448], ys[:448]), batch_size=64, shuffle=True)
    test_loader = DataLoader(TensorDataset(xs[448:], ys[448:]), batch_size=64)
    net = DigitNet().to(dev)
    opt = torch.optim.Adadelta(net.parameters(), lr=1.0)
    ce = nn.CrossEntropyLoss()
    for epoch in range(1, 4):
        train_epoch(net, dev, train_loader, opt, ce)
        print("test acc", evaluate(net, dev, test_loader))
