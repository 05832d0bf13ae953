"""Multi-series demand regressor: an LSTM over 30 days of standardised store signals with a linear head predicting the next day's unit sales (tens of thousands).

Fixed: the sales targets are standardised with the training mean and standard deviation for the
loss (and predictions mapped back for evaluation), instead of being regressed in raw units.
"""
import argparse

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset

ap = argparse.ArgumentParser()
ap.add_argument("--seed", type=int, default=0)
args = ap.parse_args()
torch.manual_seed(args.seed)
torch.set_num_threads(1)

N, T, C = 1500, 30, 4
X = torch.randn(N, T, C)
X[:, :, 0] = torch.cumsum(0.3 * torch.randn(N, T), 1) / 2
X[:, :, 2] = (torch.rand(N, T) < 0.15).float() * 2 - 0.3
signal = torch.tanh(X[:, -7:, 0].mean(1)) + 0.6 * X[:, -1, 2] - 0.4 * X[:, -3:, 1].mean(1) + 0.3 * X[:, -1, 3]
sales = 30000 + 8000 * signal + 1500 * torch.randn(N)
y = sales.unsqueeze(1)
train, test = slice(0, 1200), slice(1200, N)
y_scale = y[train].std()
target_mu, target_sd = y[train].mean(), y[train].std()


class SalesLSTM(nn.Module):
    def __init__(self):
        super().__init__()
        self.lstm = nn.LSTM(C, 32, batch_first=True)
        self.head = nn.Linear(32, 1)

    def forward(self, x):
        out, _ = self.lstm(x)
        return self.head(out[:, -1])


model = SalesLSTM()
opt = torch.optim.Adam(model.parameters(), lr=1e-2)
loader = DataLoader(TensorDataset(X[train], (y[train] - target_mu) / target_sd), batch_size=64, shuffle=True)
for epoch in range(10):
    total = 0.0
    for xb, yb in loader:
        loss = F.mse_loss(model(xb), yb)
        opt.zero_grad()
        loss.backward()
        opt.step()
        total += loss.item() * len(xb)
    with torch.no_grad():
        pred = model(X[test]) * target_sd + target_mu
        test_mse = (F.mse_loss(pred, y[test]) / y_scale ** 2).item()
    print(f"epoch {epoch} train {total / 1200:.4g} test {test_mse:.4f}")

r2 = 1 - test_mse * y_scale.item() ** 2 / y[test].var(unbiased=False).item()
print(f"final_loss={test_mse:.6g} acc={r2:.4f}")
