"""Course-work style CIFAR classifier: train, then report test accuracy."""
import torch
import torch.nn as nn
import torch.nn.functional as F
import torchvision
import torchvision.transforms as T


class SmallConvNet(nn.Module):
    def __init__(self, n_classes=10):
        super().__init__()
        self.conv1 = nn.Conv2d(3, 32, 3, padding=1)
        self.bn1 = nn.BatchNorm2d(32)
        self.conv2 = nn.Conv2d(32, 64, 3, padding=1)
        self.bn2 = nn.BatchNorm2d(64)
        self.drop = nn.Dropout(0.25)
        self.fc = nn.Linear(64 * 8 * 8, n_classes)

    def forward(self, x):
        x = F.max_pool2d(F.relu(self.bn1(self.conv1(x))), 2)
        x = F.max_pool2d(F.relu(self.bn2(self.conv2(x))), 2)
        x = self.drop(torch.flatten(x, 1))
        return self.fc(x)


def train(train_loader, network, epochs=20):
    optimizer = torch.optim.Adam(network.parameters(), lr=1e-3)
    criterion = nn.CrossEntropyLoss()
    network.train()
    for epoch in range(epochs):
        for images, labels in train_loader:
            images, labels = images.cuda(), labels.cuda()
            optimizer.zero_grad()
            loss = criterion(network(images), labels)
            loss.backward()
            optimizer.step()


def test(test_loader, network):
    correct = 0
    total = 0
    for images, labels in test_loader:
        outputs = network(images.cuda())  # expect: validation-in-train-mode
        _, predicted = torch.max(outputs.data, 1)
        total += labels.size(0)
        correct += (predicted.cpu() == labels).sum().item()
    print("Accuracy of the network on the test images: %d %%" % (100 * correct / total))


if __name__ == "__main__":
    tf = T.Compose([T.ToTensor(), T.Normalize((0.5, 0.5, 0.5), (0.5, 0.5, 0.5))])
    train_set = torchvision.datasets.CIFAR10("./data", train=True, download=True, transform=tf)
    test_set = torchvision.datasets.CIFAR10("./data", train=False, download=True, transform=tf)
    train_loader = torch.utils.data.DataLoader(train_set, batch_size=128, shuffle=True, num_workers=4)
    test_loader = torch.utils.data.DataLoader(test_set, batch_size=256, num_workers=4)
    net = SmallConvNet().cuda()
    train(train_loader, net)
    test(test_loader, net)
