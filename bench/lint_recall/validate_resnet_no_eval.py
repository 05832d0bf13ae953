# Source: https://github.com/deep-learning-with-pytorch/dlwpt-code/issues/104
# Pitfall: the chapter-8 validate() measures a ResNet with BatchNorm in train mode, so the
# reported accuracy uses validation-batch statistics.
# Reproduced in our own words, not the original code.
import torch
from torch import nn


class ResBlock(nn.Module):
    def __init__(self, n):
        super().__init__()
        self.conv = nn.Conv2d(n, n, 3, padding=1, bias=False)
        self.bn = nn.BatchNorm2d(n)

    def forward(self, x):
        return torch.relu(self.bn(self.conv(x))) + x


model = nn.Sequential(nn.Conv2d(3, 32, 3, padding=1), *[ResBlock(32) for _ in range(10)],
                      nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Linear(32, 2))
optimizer = torch.optim.SGD(model.parameters(), lr=3e-3)
loss_fn = nn.CrossEntropyLoss()


def training_loop(n_epochs, train_loader):
    for epoch in range(n_epochs):
        for imgs, labels in train_loader:
            loss = loss_fn(model(imgs), labels)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()


def validate(loader):
    correct = total = 0
    with torch.no_grad():
        for imgs, labels in loader:
            correct += (model(imgs).argmax(1) == labels).sum().item()  # expect: validation-in-train-mode
            total += labels.shape[0]
    return correct / total
