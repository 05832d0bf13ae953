"""MLP on MNIST with a held-out validation split and best-checkpoint saving."""
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader
from torch.utils.data.sampler import SubsetRandomSampler
from torchvision import datasets, transforms


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc1 = nn.Linear(28 * 28, 512)
        self.fc2 = nn.Linear(512, 512)
        self.fc3 = nn.Linear(512, 10)
        self.dropout = nn.Dropout(0.2)

    def forward(self, x):
        x = x.view(-1, 28 * 28)
        x = self.dropout(F.relu(self.fc1(x)))
        x = self.dropout(F.relu(self.fc2(x)))
        return self.fc3(x)


def loaders(batch_size=20, valid_size=0.2):
    data = datasets.MNIST("data", train=True, download=True, transform=transforms.ToTensor())
    idx = np.random.permutation(len(data))
    split = int(np.floor(valid_size * len(data)))
    train_sampler = SubsetRandomSampler(idx[split:])
    valid_sampler = SubsetRandomSampler(idx[:split])
    return (
        DataLoader(data, batch_size=batch_size, sampler=train_sampler),
        DataLoader(data, batch_size=batch_size, sampler=valid_sampler),
    )


def main(n_epochs=50):
    train_loader, valid_loader = loaders()
    model = Net()
    criterion = nn.CrossEntropyLoss()
    optimizer = torch.optim.SGD(model.parameters(), lr=0.01)
    valid_loss_min = np.inf
    for epoch in range(1, n_epochs + 1):
        train_loss, valid_loss = 0.0, 0.0
        model.train()
        for data, target in train_loader:
            optimizer.zero_grad()
            loss = criterion(model(data), target)
            loss.backward()
            optimizer.step()
            train_loss += loss.item() * data.size(0)

        with torch.no_grad():
            for data, target in valid_loader:
                output = model(data)  # expect: validation-in-train-mode
                valid_loss += criterion(output, target).item() * data.size(0)

        train_loss /= len(train_loader.sampler)
        valid_loss /= len(valid_loader.sampler)
        print(f"Epoch {epoch}: train {train_loss:.6f} valid {valid_loss:.6f}")
        if valid_loss <= valid_loss_min:
            torch.save(model.state_dict(), "model.pt")
            valid_loss_min = valid_loss
