# Source: https://github.com/yangze0930/NTS-Net/issues/14
# Pitfall: the classifier builds a fresh nn.Dropout inside forward() and applies it at once; that module
#   is always in training mode, so net.eval() cannot switch it off and test-time outputs stay random.
# Reproduced in our own words, not the original code.
import torch
import torch.nn as nn
import torch.nn.functional as F


class PartBackbone(nn.Module):
    def __init__(self, num_classes=200):
        super().__init__()
        self.stem = nn.Sequential(
            nn.Conv2d(3, 64, 7, stride=2, padding=3), nn.BatchNorm2d(64), nn.ReLU(inplace=True),
            nn.Conv2d(64, 256, 3, stride=2, padding=1), nn.BatchNorm2d(256), nn.ReLU(inplace=True),
        )
        self.pool = nn.AdaptiveAvgPool2d(1)
        self.fc = nn.Linear(256, num_classes)

    def forward(self, x):
        feature = self.stem(x)
        x = self.pool(feature).flatten(1)
        x = nn.Dropout(p=0.5)(x)  # expect: functional-dropout-always-on
        return self.fc(x), feature


def evaluate(net, loader, device):
    net.eval()
    correct = total = 0
    with torch.no_grad():
        for img, label in loader:
            img, label = img.to(device), label.to(device)
            logits, _ = net(img)
            correct += (logits.argmax(1) == label).sum().item()
            total += label.numel()
    net.train()
    return correct / total


def train_epoch(net, loader, optimizer, device):
    net.train()
    for img, label in loader:
        img, label = img.to(device), label.to(device)
        optimizer.zero_grad()
        logits, _ = net(img)
        loss = F.cross_entropy(logits, label)
        loss.backward()
        optimizer.step()
