"""Minimal fit/score wrapper in the style of torchtuples: train, score on a validation set, repeat."""
import torch
import torch.nn as nn


class Model:
    def __init__(self, net, loss, lr=1e-3):
        self.net = net
        self.loss = loss
        self.optimizer = torch.optim.Adam(net.parameters(), lr=lr)

    def fit_epoch(self, loader):
        total = 0.0
        for x, y in loader:
            self.optimizer.zero_grad()
            out = self.net(x)
            batch_loss = self.loss(out, y)
            batch_loss.backward()
            self.optimizer.step()
            total += batch_loss.item()
        return total / len(loader)

    def score_in_batches(self, loader):
        self.net.eval()  # expect: train-mode-not-restored
        total = 0.0
        with torch.no_grad():
            for x, y in loader:
                total += self.loss(self.net(x), y).item()
        return total / len(loader)

    def fit(self, train_loader, val_loader, epochs=20):
        self.net.train()
        log = []
        for epoch in range(epochs):
            tr = self.fit_epoch(train_loader)
            va = self.score_in_batches(val_loader)
            log.append((epoch, tr, va))
        return log


net = nn.Sequential(nn.Linear(20, 64), nn.BatchNorm1d(64), nn.ReLU(), nn.Dropout(0.2), nn.Linear(64, 1))
model = Model(net, nn.MSELoss())
