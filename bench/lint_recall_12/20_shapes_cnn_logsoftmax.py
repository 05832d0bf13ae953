import torch
import torch.nn as nn
import torch.nn.functional as F
import torch.optim as optim


class Net(nn.Module):
    def __init__(self, num_classes=3):
        super().__init__()
        self.conv1 = nn.Conv2d(3, 12, 3, padding=1)
        self.conv2 = nn.Conv2d(12, 24, 3, padding=1)
        self.pool = nn.MaxPool2d(2)
        self.drop = nn.Dropout2d(p=0.2)
        self.fc = nn.Linear(32 * 32 * 24, num_classes)

    def forward(self, x):
        x = F.relu(self.pool(self.conv1(x)))
        x = F.relu(self.pool(self.drop(self.conv2(x))))
        x = x.view(-1, 32 * 32 * 24)
        x = self.fc(x)
        return F.log_softmax(x, dim=1)  # expect: softmax-before-cross-entropy


def train(model, device, train_loader, optimizer, loss_criteria):
    model.train()
    train_loss = 0.0
    for data, target in train_loader:
        data, target = data.to(device), target.to(device)
        optimizer.zero_grad()
        output = model(data)
        loss = loss_criteria(output, target)
        train_loss += loss.item()
        loss.backward()
        optimizer.step()
    return train_loss / len(train_loader)


def main(train_loader, num_classes=3, epochs=5):
    device = "cuda" if torch.cuda.is_available() else "cpu"
    model = Net(num_classes).to(device)
    optimizer = optim.Adam(model.parameters(), lr=0.001)
    loss_criteria = nn.CrossEntropyLoss()
    for epoch in range(1, epochs + 1):
        print(epoch, train(model, device, train_loader, optimizer, loss_criteria))
