# Source: https://github.com/pytorch/pytorch/issues/26338
# Pitfall: forward() calls F.dropout(x) with the default training=True; putting the network in eval mode does not switch it off, so predictions stay stochastic at test time.
# Reproduced in our own words, not the original code.
import torch
import torch.nn as nn
import torch.nn.functional as F


class RegressionNet(nn.Module):
    def __init__(self, n_features):
        super().__init__()
        self.hidden = nn.Linear(n_features, 64)
        self.out = nn.Linear(64, 1)

    def forward(self, x):
        x = F.relu(self.hidden(x))
        x = F.dropout(x, 0.5)  # expect: functional-dropout-always-on
        return self.out(x)


def fit_and_score(X_train, y_train, X_val, y_val, epochs=200):
    net = RegressionNet(X_train.shape[1])
    opt = torch.optim.Adam(net.parameters(), lr=1e-3)
    loss_fn = nn.MSELoss()
    for _ in range(epochs):
        net.train()
        opt.zero_grad()
        loss = loss_fn(net(X_train), y_train)
        loss.backward()
        opt.step()
    net.eval()
    with torch.no_grad():
        val_loss = loss_fn(net(X_val), y_val).item()
    return net, val_loss
