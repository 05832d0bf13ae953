# Source: https://github.com/havakv/torchtuples/pull/9
# Pitfall: the wrapper's eval_() helper computes validation metrics after net.eval() and returns without
#          net.train(), so the training epochs that follow run with dropout and batch-norm frozen in eval mode.
# Reproduced in our own words, not the original code.
import torch
from torch import nn
from torch.utils.data import DataLoader, TensorDataset


class SurvivalMLP(nn.Module):
    def __init__(self, d):
        super().__init__()
        self.body = nn.Sequential(nn.Linear(d, 32), nn.BatchNorm1d(32), nn.ReLU(), nn.Dropout(0.1), nn.Linear(32, 1))

    def forward(self, x):
        return self.body(x).squeeze(-1)


class Model:
    def __init__(self, net, loss, optimizer):
        self.net, self.loss, self.optimizer = net, loss, optimizer

    def eval_(self, loader):
        self.net.eval()  # expect: train-mode-not-restored
        total, n = 0.0, 0
        with torch.no_grad():
            for xb, yb in loader:
                total += self.loss(self.net(xb), yb).item() * len(xb)
                n += len(xb)
        return total / n

    def fit(self, train_loader, val_loader, epochs):
        self.net.train()
        for ep in range(epochs):
            for xb, yb in train_loader:
                self.optimizer.zero_grad()
                batch_loss = self.loss(self.net(xb), yb)
                batch_loss.backward()
                self.optimizer.step()
            print(ep, "val loss", self.eval_(val_loader))


if __name__ == "__main__":
    x, y = torch.randn(300, 8), torch.randn(300)
    train_dl = DataLoader(TensorDataset(x[:240], y[:240]), batch_size=32, shuffle=True)
    val_dl = DataLoader(TensorDataset(x[240:], y[240:]), batch_size=60)
    net = SurvivalMLP(8)
    Model(net, nn.MSELoss(), torch.optim.Adam(net.parameters(), lr=1e-3)).fit(train_dl, val_dl, 5)
