# Source: https://github.com/nguyenbui45/Deep-learning-summary/blob/HEAD/codes/crossentropy.py
# Pitfall: the loss takes softmax probabilities, gathers the true class and then applies torch.log;
#   a probability that underflows to 0 gives -log(0) = inf, so one confident mistake makes the loss inf.
# Reproduced in our own words, not the original code.
import torch
import torch.nn as nn
import torch.nn.functional as F


class TinyCNN(nn.Module):
    def __init__(self, num_classes=10):
        super().__init__()
        self.features = nn.Sequential(
            nn.Conv2d(3, 32, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2),
            nn.Conv2d(32, 64, 3, padding=1), nn.ReLU(), nn.AdaptiveAvgPool2d(1),
        )
        self.head = nn.Linear(64, num_classes)

    def forward(self, x):
        return self.head(self.features(x).flatten(1))


def manual_ce(logits, labels):
    probs = F.softmax(logits, dim=1)
    picked = probs.gather(1, labels.view(-1, 1))
    return torch.mean(-torch.log(picked))  # expect: log-of-softmax


def train(loader, epochs=5, device="cpu"):
    net = TinyCNN().to(device)
    opt = torch.optim.SGD(net.parameters(), lr=0.01, momentum=0.9)
    for epoch in range(epochs):
        net.train()
        total = 0.0
        for images, labels in loader:
            images, labels = images.to(device), labels.to(device)
            opt.zero_grad()
            loss = manual_ce(net(images), labels)
            loss.backward()
            opt.step()
            total += loss.item()
        print(epoch, total / len(loader))
    return net
