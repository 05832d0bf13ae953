import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader
from torchvision import datasets, transforms


class SmallCNN(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv1 = nn.Conv2d(3, 32, 3, padding=1)
        self.conv2 = nn.Conv2d(32, 64, 3, padding=1)
        self.fc = nn.Linear(64 * 8 * 8, 10)

    def forward(self, x):
        x = F.max_pool2d(F.relu(self.conv1(x)), 2)
        x = F.max_pool2d(F.relu(self.conv2(x)), 2)
        return self.fc(x.flatten(1))


def main():
    tfm = transforms.Compose([transforms.ToTensor()])
    train_set = datasets.CIFAR10("./data", train=True, download=True, transform=tfm)
    loader = DataLoader(train_set, batch_size=128, shuffle=True, num_workers=2)
    model = SmallCNN()
    criterion = nn.CrossEntropyLoss()
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
    for epoch in range(5):
        model.train()
        optimizer.zero_grad()
        running = 0.0
        for images, labels in loader:
            outputs = model(images)
            loss = criterion(outputs, labels)
            loss.backward()  # expect: gradients-never-cleared
            optimizer.step()
            running += loss.item()
        print(epoch, running / len(loader))


if __name__ == "__main__":
    main()
