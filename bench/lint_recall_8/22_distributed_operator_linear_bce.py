# Source: https://github.com/ray-project/ray/issues/17117
# Pitfall: the training operator's model is a bare nn.Linear and its criterion is nn.BCELoss, so
# unbounded linear outputs go straight into BCE ("all elements of input should be between 0 and 1").
# Reproduced in our own words, not the original code.
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, Dataset


class ThresholdDataset(Dataset):
    """x in [0, 1); label is 1 when x > 0.5."""

    def __init__(self, n=512):
        self.x = torch.rand(n, 1)
        self.y = (self.x > 0.5).float()

    def __len__(self):
        return len(self.x)

    def __getitem__(self, i):
        return self.x[i], self.y[i]


class Operator:
    def setup(self, config):
        self.model = nn.Linear(1, 1)
        self.optimizer = torch.optim.SGD(self.model.parameters(), lr=config.get("lr", 1e-2))
        self.criterion = nn.BCELoss()
        self.scheduler = torch.optim.lr_scheduler.StepLR(self.optimizer, step_size=5, gamma=0.9)
        self.train_loader = DataLoader(ThresholdDataset(), batch_size=config["batch_size"], shuffle=True)
        self.val_loader = DataLoader(ThresholdDataset(128), batch_size=config["batch_size"])

    def train_epoch(self):
        self.model.train()
        total = 0.0
        for x, y in self.train_loader:
            self.optimizer.zero_grad()
            out = self.model(x)
            loss = self.criterion(out, y)  # expect: bce-on-logits
            loss.backward()
            self.optimizer.step()
            total += loss.item()
        self.scheduler.step()
        return total / len(self.train_loader)

    def validate(self):
        self.model.eval()
        correct = 0
        with torch.no_grad():
            for x, y in self.val_loader:
                correct += ((self.model(x) > 0.5).float() == y).sum().item()
        self.model.train()
        return correct / len(self.val_loader.dataset)


if __name__ == "__main__":
    op = Operator()
    op.setup({"lr": 0.05, "batch_size": 32})
    for epoch in range(3):
        print(epoch, op.train_epoch(), op.validate())
