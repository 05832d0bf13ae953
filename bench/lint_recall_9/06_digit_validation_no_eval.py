# Source: https://github.com/lukasz-starosta/mnist-recognizer/blob/HEAD/validation.py
# Pitfall: the accuracy check runs the network on validation batches without model.eval() and without
#   torch.no_grad(): dropout/batch-norm stay in training behaviour and autograd records every batch.
# Reproduced in our own words, not the original code.
import torch
import torch.nn as nn
import torch.nn.functional as F


class DigitNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv1 = nn.Conv2d(1, 16, 5)
        self.bn1 = nn.BatchNorm2d(16)
        self.conv2 = nn.Conv2d(16, 32, 5)
        self.drop = nn.Dropout(0.3)
        self.fc = nn.Linear(32 * 4 * 4, 10)

    def forward(self, x):
        x = F.max_pool2d(F.relu(self.bn1(self.conv1(x))), 2)
        x = F.max_pool2d(F.relu(self.conv2(x)), 2)
        return self.fc(self.drop(x.flatten(1)))


def check_accuracy(net, loader):
    hits, count = 0, 0
    for images, labels in loader:
        images = images.cuda()
        scores = net(images)  # expect: validation-in-train-mode
        _, guess = torch.max(scores, 1)
        hits += (guess.cpu() == labels).sum().item()
        count += labels.size(0)
    return 100.0 * hits / count


def train(net, train_loader, val_loader, epochs=10):
    opt = torch.optim.Adam(net.parameters(), lr=1e-3)
    for epoch in range(epochs):
        net.train()
        for images, labels in train_loader:
            images, labels = images.cuda(), labels.cuda()
            opt.zero_grad()
            loss = F.cross_entropy(net(images), labels)
            loss.backward()
            opt.step()
        print(f"epoch {epoch} val acc {check_accuracy(net, val_loader):.2f}%")
