"""Multi-series demand regressor: an LSTM reads 30 days of standardised store signals (traffic, price index, promotion flag, weather) and a linear head predicts the next day's unit sales of the store, which run in the tens of thousands. The targets are fed to the MSE loss in raw units while every input is standardised and the head starts with outputs near 0; the loss starts around 1e9 and, with Adam's per-step moves of about lr, the output layer needs thousands of steps just to climb to the mean level, so after the whole run the model is still far below the sales it should predict and the error stays enormous. The SGD / Adam settings that work for standardised targets cannot reach targets on this scale.

Source: https://github.com/keras-team/keras/issues/4563 (Very high / Nan loss when performing multiple sequence time series regression)
Report: "I am training an LSTM model for multiple time-series regression. But, my losses are always
either very high or Nan. I have tried several optimizers ... I should add that the Y values I am
trying to predict are very high." (reply: "Have you tried to rescale the values before training?").
Reproduced with 1,500 synthetic store-windows (1,200 for training, the last 300 held out; 4
standardised input channels over 30 days; next-day sales = 30,000 + 8,000 x a nonlinear function of
the recent inputs + noise), an LSTM(4->32) with a linear head, Adam lr 1e-2, DataLoader batches of
64 for 10 epochs, MSE on the raw targets. The printed loss is the test MSE in units of (standard
deviations of sales)^2 computed from the de-standardised predictions, `acc` the test R^2.

expect: data-unnormalized
symptom: final-loss-ratio 5
batch: 19
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
target_mu, target_sd = 0.0, 1.0


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
