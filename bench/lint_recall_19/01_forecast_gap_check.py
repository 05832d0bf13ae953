"""Train a small MLP forecaster on sliding windows of a univariate series.

Before windowing, the loader tries to skip the gap-trimming step when the
series has no missing values.
"""
import numpy as np
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset


def longest_clean_span(values: np.ndarray) -> np.ndarray:
    if not (values == np.nan).any():  # expect: nan-equality-check
        return values.copy()
    mask = np.isnan(values)
    best_start, best_len, start = 0, 0, None
    for i, missing in enumerate(np.append(mask, True)):
        if not missing and start is None:
            start = i
        elif missing and start is not None:
            if i - start > best_len:
                best_start, best_len = start, i - start
            start = None
    return values[best_start:best_start + best_len]


def make_windows(series: np.ndarray, lookback: int, horizon: int):
    xs, ys = [], []
    for t in range(len(series) - lookback - horizon + 1):
        xs.append(series[t:t + lookback])
        ys.append(series[t + lookback:t + lookback + horizon])
    x = torch.tensor(np.stack(xs), dtype=torch.float32)
    y = torch.tensor(np.stack(ys), dtype=torch.float32)
    return x, y


class WindowMLP(nn.Module):
    def __init__(self, lookback: int, horizon: int, hidden: int = 64):
        super().__init__()
        self.net = nn.Sequential(
            nn.Linear(lookback, hidden),
            nn.ReLU(),
            nn.Linear(hidden, horizon),
        )

    def forward(self, x):
        return self.net(x)


def main():
    raw = np.loadtxt("load.csv", delimiter=",")
    series = longest_clean_span(raw)
    mean, std = series.mean(), series.std() + 1e-8
    series = (series - mean) / std

    x, y = make_windows(series, lookback=48, horizon=12)
    loader = DataLoader(TensorDataset(x, y), batch_size=128, shuffle=True)

    model = WindowMLP(48, 12)
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
    loss_fn = nn.MSELoss()

    for epoch in range(30):
        model.train()
        epoch_loss = 0.0
        for xb, yb in loader:
            optimizer.zero_grad()
            loss = loss_fn(model(xb), yb)
            loss.backward()
            optimizer.step()
            epoch_loss += loss.item() * xb.size(0)
        print(f"epoch {epoch}: {epoch_loss / len(loader.dataset):.4f}")

    torch.save(model.state_dict(), "forecaster.pt")


if __name__ == "__main__":
    main()
