"""Tabular model wrapper: data-aware initialisation, fit loop and prediction helper."""
import torch
from torch import nn


class TabularModel:
    def __init__(self, model, lr=1e-3, epochs=20):
        self.model = model
        self.optimizer = torch.optim.Adam(model.parameters(), lr=lr)
        self.loss_fn = nn.MSELoss()
        self.epochs = epochs

    def data_aware_initialization(self, loader):
        self.model.eval()  # expect: train-mode-not-restored
        with torch.no_grad():
            x, _ = next(iter(loader))
            self.model(x)

    def fit(self, train_loader, val_loader):
        self.model.train()
        self.data_aware_initialization(train_loader)
        for epoch in range(self.epochs):
            for x, y in train_loader:
                self.optimizer.zero_grad()
                loss = self.loss_fn(self.model(x).squeeze(-1), y)
                loss.backward()
                self.optimizer.step()
            print(f"epoch {epoch}: last batch loss {loss.item():.4f}")
        return self.evaluate(val_loader)

    def evaluate(self, loader):
        self.model.eval()
        total, count = 0.0, 0
        with torch.no_grad():
            for x, y in loader:
                total += self.loss_fn(self.model(x).squeeze(-1), y).item() * len(y)
                count += len(y)
        return total / max(count, 1)
