"""CIFAR-10 LeNet baseline: StepLR schedule updated once per epoch, validation on the held-out split."""
import torch
import torch.nn as nn
import torch.nn.functional as F
import torch.optim as optim
from torch.utils.data import DataLoader


class LeNet(nn.Module):
    def __init__(self, num_classes=10):
        super().__init__()
        self.features = nn.Sequential(
            nn.Conv2d(3, 6, 5), nn.ReLU(), nn.MaxPool2d(2),
            nn.Conv2d(6, 16, 5), nn.ReLU(), nn.MaxPool2d(2),
        )
        self.classifier = nn.Sequential(
            nn.Linear(16 * 5 * 5, 120), nn.ReLU(), nn.Linear(120, 84), nn.ReLU(), nn.Linear(84, num_classes),
        )

    def forward(self, x):
        return self.classifier(self.features(x).flatten(1))


def evaluate(net, loader):
    net.eval()
    correct = total = 0
    with torch.no_grad():
        for images, labels in loader:
            correct += (net(images).argmax(dim=1) == labels).sum().item()
            total += labels.numel()
    net.train()
    return correct / total


def fit(train_data, valid_data, max_epoch=200, lr_init=0.001):
    train_loader = DataLoader(train_data, batch_size=16, shuffle=True, num_workers=2)
    valid_loader = DataLoader(valid_data, batch_size=16, num_workers=2)
    net = LeNet()
    criterion = nn.CrossEntropyLoss()
    optimizer = optim.SGD(net.parameters(), lr=lr_init, momentum=0.9, dampening=0.1)
    scheduler = optim.lr_scheduler.StepLR(optimizer, step_size=50, gamma=0.1)
    net.train()
    for epoch in range(max_epoch):
        loss_sigma = 0.0
        scheduler.step()  # expect: scheduler-before-optimizer
        for i, (inputs, labels) in enumerate(train_loader):
            optimizer.zero_grad()
            loss = criterion(net(inputs), labels)
            loss.backward()
            optimizer.step()
            loss_sigma += loss.item()
        print(f"epoch {epoch}: lr {scheduler.get_last_lr()[0]:.5f} loss {loss_sigma / len(train_loader):.4f} "
              f"val acc {evaluate(net, valid_loader):.3f}")
    return net
