# Source: https://github.com/Coderx7/SimpleNet/issues/2
# Pitfall: forward() applies F.dropout2d with training=True hard-coded after global max pooling, so
# the trained network keeps dropping features in eval mode and gives a different answer each run.
# Reproduced in our own words, not the original code.
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset


def conv_bn(cin, cout):
    return nn.Sequential(nn.Conv2d(cin, cout, 3, padding=1, bias=False), nn.BatchNorm2d(cout), nn.ReLU(inplace=True))


class CompactNet(nn.Module):
    def __init__(self, n_classes=10):
        super().__init__()
        self.features = nn.Sequential(conv_bn(3, 64), conv_bn(64, 128), nn.MaxPool2d(2),
                                      conv_bn(128, 128), conv_bn(128, 256), nn.MaxPool2d(2))
        self.classifier = nn.Linear(256, n_classes)

    def forward(self, x):
        out = self.features(x)
        out = F.max_pool2d(out, kernel_size=out.size()[2:])
        out = F.dropout2d(out, 0.1, training=True)  # expect: functional-dropout-always-on
        out = out.view(out.size(0), -1)
        return self.classifier(out)


def test(model, loader):
    model.eval()
    correct = 0
    with torch.no_grad():
        for images, labels in loader:
            correct += (model(images).argmax(1) == labels).sum().item()
    return correct / len(loader.dataset)


if __name__ == "__main__":
    data = TensorDataset(torch.randn(64, 3, 32, 32), torch.randint(0, 10, (64,)))
    train_loader = DataLoader(data, batch_size=16, shuffle=True)
    test_loader = DataLoader(data, batch_size=32)
    net = CompactNet()
    opt = torch.optim.Adadelta(net.parameters(), lr=0.1, weight_decay=1e-3)
    for epoch in range(2):
        net.train()
        for images, labels in train_loader:
            opt.zero_grad()
            loss = F.cross_entropy(net(images), labels)
            loss.backward()
            opt.step()
        print(epoch, test(net, test_loader), test(net, test_loader))
