"""Style: a Keras-like fit() method with callbacks and k-fold cross-validation (clean)."""
import numpy as np
import torch
from sklearn.model_selection import KFold
from torch import nn


class Model(nn.Module):
    def __init__(self, d_in, d_out):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(d_in, 64), nn.ReLU(), nn.Dropout(0.2), nn.Linear(64, d_out))
        self.loss_fn = nn.CrossEntropyLoss()
        self.optimizer = torch.optim.Adam(self.parameters(), lr=1e-3)

    def forward(self, x):
        return self.net(x)

    def train_on_batch(self, x, y):
        self.optimizer.zero_grad()
        loss = self.loss_fn(self(x), y)
        loss.backward()
        self.optimizer.step()
        return loss.item()

    @torch.no_grad()
    def evaluate(self, x, y, batch_size=256):
        self.eval()
        correct = 0
        for i in range(0, len(x), batch_size):
            correct += (self(x[i:i + batch_size]).argmax(1) == y[i:i + batch_size]).sum().item()
        self.train()
        return correct / len(x)

    def fit(self, x, y, epochs=10, batch_size=64, callbacks=()):
        for epoch in range(epochs):
            perm = torch.randperm(len(x))
            history = [self.train_on_batch(x[perm[i:i + batch_size]], y[perm[i:i + batch_size]])
                       for i in range(0, len(x), batch_size)]
            for cb in callbacks:
                cb(epoch, float(np.mean(history)))


def cross_validate(x, y, n_classes, folds=5):
    scores = []
    for fold, (train_idx, val_idx) in enumerate(KFold(folds, shuffle=True).split(x)):
        model = Model(x.shape[1], n_classes)
        model.fit(x[train_idx], y[train_idx])
        scores.append(model.evaluate(x[val_idx], y[val_idx]))
    return float(np.mean(scores)), float(np.std(scores))
