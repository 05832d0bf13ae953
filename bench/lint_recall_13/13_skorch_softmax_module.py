"""Classifier module ending in softmax, with an NLL criterion on its log output."""
import numpy as np
import torch
import torch.nn.functional as F
from torch import nn


class ClassifierModule(nn.Module):
    def __init__(self, num_units=10, nonlin=nn.ReLU(), dropout=0.5):
        super().__init__()
        self.dense0 = nn.Linear(20, num_units)
        self.nonlin = nonlin
        self.dropout = nn.Dropout(dropout)
        self.dense1 = nn.Linear(num_units, 10)
        self.output = nn.Linear(10, 2)

    def forward(self, X):
        X = self.nonlin(self.dense0(X))
        X = self.dropout(X)
        X = self.nonlin(self.dense1(X))
        return F.softmax(self.output(X), dim=-1)


def fit(module, X, y, epochs=10, lr=0.1, batch_size=128):
    X = torch.as_tensor(X, dtype=torch.float32)
    y = torch.as_tensor(y, dtype=torch.long)
    optimizer = torch.optim.SGD(module.parameters(), lr=lr)
    for epoch in range(epochs):
        module.train()
        perm = torch.randperm(len(X))
        losses = []
        for start in range(0, len(X), batch_size):
            idx = perm[start:start + batch_size]
            optimizer.zero_grad()
            y_proba = module(X[idx])
            loss = F.nll_loss(torch.log(y_proba), y[idx])  # expect: log-of-softmax
            loss.backward()
            optimizer.step()
            losses.append(loss.item())
        print(epoch, np.mean(losses))
