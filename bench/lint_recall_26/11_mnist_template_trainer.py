"""Project-template style MNIST training: config-driven data loaders and a BaseTrainer."""
import argparse

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader
from torch.utils.data.sampler import SubsetRandomSampler
from torchvision import datasets, transforms


class MnistModel(nn.Module):
    def __init__(self, num_classes=10):
        super().__init__()
        self.conv1 = nn.Conv2d(1, 10, kernel_size=5)
        self.conv2 = nn.Conv2d(10, 20, kernel_size=5)
        self.conv2_drop = nn.Dropout2d()
        self.fc1 = nn.Linear(320, 50)
        self.fc2 = nn.Linear(50, num_classes)

    def forward(self, x):
        x = F.relu(F.max_pool2d(self.conv1(x), 2))
        x = F.relu(F.max_pool2d(self.conv2_drop(self.conv2(x)), 2))
        x = x.view(-1, 320)
        x = F.dropout(F.relu(self.fc1(x)), training=self.training)
        return F.log_softmax(self.fc2(x), dim=1)


def make_loaders(data_dir, batch_size, validation_split=0.1):
    tf = transforms.Compose([transforms.ToTensor(), transforms.Normalize((0.1307,), (0.3081,))])
    full = datasets.MNIST(data_dir, train=True, download=True, transform=tf)
    n_valid = int(len(full) * validation_split)
    train_set, valid_set = torch.utils.data.random_split(full, [len(full) - n_valid, n_valid])
    data_loader = DataLoader(train_set, batch_size=batch_size, num_workers=2)  # expect: train-loader-not-shuffled
    valid_data_loader = DataLoader(valid_set, batch_size=batch_size, num_workers=2)
    return data_loader, valid_data_loader


class Trainer:
    def __init__(self, model, optimizer, data_loader, valid_data_loader, device):
        self.model, self.optimizer = model, optimizer
        self.data_loader, self.valid_data_loader = data_loader, valid_data_loader
        self.device = device

    def _train_epoch(self):
        self.model.train()
        total = 0.0
        for data, target in self.data_loader:
            data, target = data.to(self.device), target.to(self.device)
            self.optimizer.zero_grad()
            loss = F.nll_loss(self.model(data), target)
            loss.backward()
            self.optimizer.step()
            total += loss.item()
        return total / len(self.data_loader)

    def _valid_epoch(self):
        self.model.eval()
        correct = 0
        with torch.no_grad():
            for data, target in self.valid_data_loader:
                output = self.model(data.to(self.device))
                correct += (output.argmax(dim=1).cpu() == target).sum().item()
        return correct / len(self.valid_data_loader.dataset)

    def train(self, epochs):
        for epoch in range(1, epochs + 1):
            loss = self._train_epoch()
            acc = self._valid_epoch()
            print(f"epoch {epoch}: loss={loss:.4f} val_my_metric={acc:.4f}")


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--data-dir", default="datasets/")
    parser.add_argument("--batch-size", type=int, default=32)
    parser.add_argument("--epochs", type=int, default=10)
    args = parser.parse_args()
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    model = MnistModel().to(device)
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
    train_loader, valid_loader = make_loaders(args.data_dir, args.batch_size)
    Trainer(model, optimizer, train_loader, valid_loader, device).train(args.epochs)
