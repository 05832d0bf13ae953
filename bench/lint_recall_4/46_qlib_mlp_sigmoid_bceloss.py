# Source: https://github.com/microsoft/qlib/pull/756
# Pitfall: the binary MLP forecaster applies a sigmoid to its output and trains it with
#   nn.BCELoss; the PR swaps in BCEWithLogitsLoss on the raw output for numerical stability.
# Reproduced in our own words, not the original code.
import numpy as np
import torch
import torch.nn as nn


class Net(nn.Module):
    def __init__(self, input_dim, output_dim=1, layers=(256,)):
        super().__init__()
        dims = [input_dim] + list(layers)
        blocks = []
        for i in range(len(layers)):
            blocks += [nn.Dropout(0.05), nn.Linear(dims[i], dims[i + 1]), nn.BatchNorm1d(dims[i + 1]), nn.LeakyReLU(0.1)]
        self.body = nn.Sequential(*blocks)
        self.out = nn.Linear(dims[-1], output_dim)

    def forward(self, x):
        return self.out(self.body(x))


class DNNModel:
    def __init__(self, d_feat, lr=2e-3, batch_size=2000, max_steps=8000, loss="binary"):
        self.net = Net(d_feat)
        self.lr = lr
        self.batch_size = batch_size
        self.max_steps = max_steps
        self.loss_type = loss
        self.optimizer = torch.optim.Adam(self.net.parameters(), lr=lr)
        self.bce = nn.BCELoss()

    def get_loss(self, pred, target):
        if self.loss_type == "binary":
            return self.bce(torch.sigmoid(pred), target)  # expect: sigmoid-before-bce
        return ((pred - target) ** 2).mean()

    def fit(self, x_train, y_train):
        x_train = torch.from_numpy(np.asarray(x_train, dtype=np.float32))
        y_train = torch.from_numpy(np.asarray(y_train, dtype=np.float32)).view(-1, 1)
        for step in range(self.max_steps):
            self.net.train()
            idx = torch.randint(0, x_train.size(0), (self.batch_size,))
            pred = self.net(x_train[idx])
            loss = self.get_loss(pred, y_train[idx])
            self.optimizer.zero_grad()
            loss.backward()
            self.optimizer.step()
