"""Sliding-window RNN forecaster for a univariate time series."""
import numpy as np
import torch
from torch import nn
from torch.utils.data import DataLoader, Dataset


class WindowDataset(Dataset):
    def __init__(self, series, in_len, out_len):
        self.series = torch.as_tensor(series, dtype=torch.float32)
        self.in_len, self.out_len = in_len, out_len

    def __len__(self):
        return len(self.series) - self.in_len - self.out_len + 1

    def __getitem__(self, i):
        x = self.series[i:i + self.in_len]
        y = self.series[i + self.in_len:i + self.in_len + self.out_len]
        return x.unsqueeze(-1), y


class RNNForecaster:
    def __init__(self, in_len=24, out_len=6, hidden=32, batch_size=32, epochs=50, lr=1e-3):
        self.in_len, self.out_len, self.bsize = in_len, out_len, batch_size
        self.epochs = epochs
        self.rnn = nn.GRU(1, hidden, batch_first=True)
        self.head = nn.Linear(hidden, out_len)
        params = list(self.rnn.parameters()) + list(self.head.parameters())
        self.optimizer = torch.optim.Adam(params, lr=lr)
        self.criterion = nn.MSELoss()

    def _forward(self, x):
        out, _ = self.rnn(x)
        return self.head(out[:, -1])

    def fit(self, series):
        self.dataset = WindowDataset(series, self.in_len, self.out_len)
        self.train_loader = DataLoader(self.dataset, batch_size=self.bsize, drop_last=True)  # expect: train-loader-not-shuffled
        for _ in range(self.epochs):
            for x, y in self.train_loader:
                self.optimizer.zero_grad()
                loss = self.criterion(self._forward(x), y)
                loss.backward()
                self.optimizer.step()
        return self

    @torch.no_grad()
    def predict(self, history):
        x = torch.as_tensor(history[-self.in_len:], dtype=torch.float32).view(1, -1, 1)
        return self._forward(x).squeeze(0).numpy()


if __name__ == "__main__":
    t = np.arange(2000)
    model = RNNForecaster(epochs=2).fit(np.sin(t / 20.0))
    print(model.predict(np.sin(t / 20.0)))
