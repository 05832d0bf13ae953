"""Handwritten-digit ConvNet from a Chinese PyTorch textbook chapter, trained with CrossEntropyLoss."""
import torch
import torch.nn as nn
import torch.nn.functional as F
import torchvision
import torchvision.transforms as transforms

image_size = 28
num_classes = 10
num_epochs = 20
batch_size = 64

train_dataset = torchvision.datasets.MNIST(root="./data", train=True, transform=transforms.ToTensor(), download=True)
test_dataset = torchvision.datasets.MNIST(root="./data", train=False, transform=transforms.ToTensor())
train_loader = torch.utils.data.DataLoader(train_dataset, batch_size=batch_size, shuffle=True)
test_loader = torch.utils.data.DataLoader(test_dataset, batch_size=batch_size, shuffle=False)

depth = [4, 8]


class ConvNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv1 = nn.Conv2d(1, 4, 5, padding=2)
        self.pool = nn.MaxPool2d(2, 2)
        self.conv2 = nn.Conv2d(depth[0], depth[1], 5, padding=2)
        self.fc1 = nn.Linear(image_size // 4 * image_size // 4 * depth[1], 512)
        self.fc2 = nn.Linear(512, num_classes)

    def forward(self, x):
        x = self.pool(F.relu(self.conv1(x)))
        x = self.pool(F.relu(self.conv2(x)))
        x = x.view(-1, image_size // 4 * image_size // 4 * depth[1])
        x = F.relu(self.fc1(x))
        x = F.dropout(x, training=self.training)
        return self.fc2(x)


net = ConvNet()
criterion = nn.CrossEntropyLoss()
optimizer = torch.optim.SGD(net.parameters(), lr=0.001, momentum=0.9)

for epoch in range(num_epochs):
    net.train()
    train_loss = 0.0
    for batch_idx, (data, target) in enumerate(train_loader):
        optimizer.zero_grad()
        output = net(data)
        loss = criterion(F.log_softmax(output, dim=0), target)  # expect: softmax-over-batch-dim, softmax-before-cross-entropy
        loss.backward()
        optimizer.step()
        train_loss += loss.item()

    net.eval()
    correct = 0
    with torch.no_grad():
        for data, target in test_loader:
            correct += (net(data).argmax(dim=1) == target).sum().item()
    print(f"epoch {epoch}: train loss {train_loss / max(len(train_loader), 1):.4f}, "
          f"test acc {correct / max(len(test_dataset), 1):.4f}")
