"""Distributed SGD wrapper example: a training operator for a one-feature binary classifier."""
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, Dataset


class LinearDataset(Dataset):
    def __init__(self, a, b, size=1000):
        x = torch.arange(0, 10, 10 / size, dtype=torch.float32)
        self.x = x.unsqueeze(1)
        self.y = ((a * x + b) > 5).float().unsqueeze(1)

    def __getitem__(self, index):
        return self.x[index], self.y[index]

    def __len__(self):
        return len(self.x)


class MyTrainingOperator:
    def setup(self, config):
        train_dataset, val_dataset = LinearDataset(2, 5), LinearDataset(2, 5)
        self.train_loader = DataLoader(train_dataset, batch_size=config["batch_size"], shuffle=True)
        self.val_loader = DataLoader(val_dataset, batch_size=config["batch_size"])
        self.model = nn.Linear(1, 1)
        self.optimizer = torch.optim.SGD(self.model.parameters(), lr=config.get("lr", 1e-4))
        self.criterion = torch.nn.BCELoss()
        self.scheduler = torch.optim.lr_scheduler.StepLR(self.optimizer, step_size=5, gamma=0.9)

    def train_epoch(self):
        self.model.train()
        for x, y in self.train_loader:
            self.optimizer.zero_grad()
            output = self.model(x)
            loss = self.criterion(output, y)  # expect: bce-on-logits
            loss.backward()
            self.optimizer.step()
        self.scheduler.step()

    def validate(self):
        self.model.eval()
        correct = 0
        with torch.no_grad():
            for x, y in self.val_loader:
                correct += ((self.model(x) > 0).float() == y).sum().item()
        return correct / len(self.val_loader.dataset)


if __name__ == "__main__":
    op = MyTrainingOperator()
    op.setup({"batch_size": 32, "lr": 1e-2})
    for _ in range(3):
        op.train_epoch()
        print(op.validate())
