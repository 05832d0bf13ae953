"""CIFAR classifier whose classifier width is found by probing the conv stack once."""
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.autograd import Variable


class Network(nn.Module):
    def __init__(self, config):
        super().__init__()
        input_shape = config["input_shape"]
        n_classes = config["n_classes"]
        self.conv1 = nn.Conv2d(input_shape[1], 32, kernel_size=3, padding=1)
        self.bn1 = nn.BatchNorm2d(32)
        self.conv2 = nn.Conv2d(32, 64, kernel_size=3, padding=1)
        self.bn2 = nn.BatchNorm2d(64)
        self.conv3 = nn.Conv2d(64, 128, kernel_size=3, padding=1)
        self.bn3 = nn.BatchNorm2d(128)

        # compute conv feature size
        self.feature_size = self._forward_conv(
            Variable(torch.zeros(*input_shape), volatile=True)).view(-1).shape[0]  # expect: volatile-variable

        self.fc = nn.Linear(self.feature_size, n_classes)

    def _forward_conv(self, x):
        x = F.max_pool2d(F.relu(self.bn1(self.conv1(x))), 2)
        x = F.max_pool2d(F.relu(self.bn2(self.conv2(x))), 2)
        x = F.max_pool2d(F.relu(self.bn3(self.conv3(x))), 2)
        return x

    def forward(self, x):
        x = self._forward_conv(x)
        x = x.view(x.size(0), -1)
        return self.fc(x)


def train(epoch, model, optimizer, criterion, train_loader, device):
    model.train()
    loss_sum, correct, seen = 0.0, 0, 0
    for step, (data, targets) in enumerate(train_loader):
        data, targets = data.to(device), targets.to(device)
        optimizer.zero_grad()
        outputs = model(data)
        loss = criterion(outputs, targets)
        loss.backward()
        optimizer.step()
        loss_sum += loss.item() * data.size(0)
        correct += (outputs.argmax(dim=1) == targets).sum().item()
        seen += data.size(0)
    print(f"epoch {epoch} loss {loss_sum / max(seen, 1):.4f} acc {correct / max(seen, 1):.4f}")


if __name__ == "__main__":
    net = Network({"input_shape": (1, 3, 32, 32), "n_classes": 10})
    print(net.feature_size)
