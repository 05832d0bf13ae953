"""'Free' adversarial training on CIFAR-style data: replay each minibatch m times, then validate."""
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset


class WideBlock(nn.Module):
    def __init__(self, cin, cout, stride):
        super().__init__()
        self.bn1 = nn.BatchNorm2d(cin)
        self.conv1 = nn.Conv2d(cin, cout, 3, stride=stride, padding=1, bias=False)
        self.bn2 = nn.BatchNorm2d(cout)
        self.conv2 = nn.Conv2d(cout, cout, 3, padding=1, bias=False)
        self.short = nn.Conv2d(cin, cout, 1, stride=stride, bias=False)

    def forward(self, x):
        o = self.conv1(F.relu(self.bn1(x)))
        o = self.conv2(F.relu(self.bn2(o)))
        return o + self.short(x)


class Net(nn.Module):
    def __init__(self, n_classes=10):
        super().__init__()
        self.stem = nn.Conv2d(3, 16, 3, padding=1)
        self.blocks = nn.Sequential(WideBlock(16, 32, 1), WideBlock(32, 64, 2))
        self.bn = nn.BatchNorm2d(64)
        self.fc = nn.Linear(64, n_classes)

    def forward(self, x):
        h = F.relu(self.bn(self.blocks(self.stem(x))))
        return self.fc(F.adaptive_avg_pool2d(h, 1).flatten(1))


def train_free(model, loader, optimizer, eps=8 / 255, replays=4):
    model.train()
    delta = None
    for x, y in loader:
        if delta is None or delta.shape != x.shape:
            delta = torch.zeros_like(x)
        for _ in range(replays):
            adv = (x + delta).clamp(0, 1).requires_grad_(True)
            loss = F.cross_entropy(model(adv), y)
            optimizer.zero_grad()
            loss.backward()
            grad = adv.grad.detach()
            delta = (delta + eps * grad.sign()).clamp(-eps, eps)
            optimizer.step()


def validate(model, loader):
    correct, total = 0, 0
    with torch.no_grad():
        for x, y in loader:
            logits = model(x)  # expect: validation-in-train-mode
            correct += (logits.argmax(1) == y).sum().item()
            total += y.numel()
    return correct / total


if __name__ == "__main__":
    xs = torch.rand(32, 3, 32, 32)
    ys = torch.randint(0, 10, (32,))
    net = Net()
    opt = torch.optim.SGD(net.parameters(), lr=0.1, momentum=0.9, weight_decay=2e-4)
    train_free(net, DataLoader(TensorDataset(xs, ys), batch_size=8, shuffle=True), opt)
    print(validate(net, DataLoader(TensorDataset(xs, ys), batch_size=8)))
