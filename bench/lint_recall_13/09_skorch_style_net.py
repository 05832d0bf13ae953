"""A small skorch-like wrapper: fit loop with a per-batch validation step."""
import torch
import torch.nn as nn


class NeuralNet:
    def __init__(self, module, criterion=nn.CrossEntropyLoss, lr=0.01, device="cpu"):
        self.module_ = module.to(device)
        self.criterion_ = criterion()
        self.optimizer_ = torch.optim.SGD(self.module_.parameters(), lr=lr, momentum=0.9)
        self.device = device

    def infer(self, Xi):
        return self.module_(Xi.to(self.device))

    def get_loss(self, y_pred, y_true):
        return self.criterion_(y_pred, y_true.to(self.device))

    def train_step(self, Xi, yi):
        self.module_.train()
        self.optimizer_.zero_grad()
        y_pred = self.infer(Xi)
        loss = self.get_loss(y_pred, yi)
        loss.backward()
        self.optimizer_.step()
        return loss.item()

    def validation_step(self, Xi, yi):
        self.module_.eval()
        y_pred = self.infer(Xi)  # expect: validation-in-train-mode
        loss = self.get_loss(y_pred, yi)
        return loss.item()

    def fit(self, train_batches, valid_batches, max_epochs=10):
        for epoch in range(max_epochs):
            train_losses = [self.train_step(X, y) for X, y in train_batches]
            valid_losses = [self.validation_step(X, y) for X, y in valid_batches]
            print(epoch, sum(train_losses) / len(train_losses), sum(valid_losses) / len(valid_losses))
        return self
