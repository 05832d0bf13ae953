"""Streamflow forecasting: resume an LSTM run from the last saved epoch and keep training."""
from pathlib import Path

import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset


class ForecastLSTM(nn.Module):
    def __init__(self, n_features, hidden=64):
        super().__init__()
        self.lstm = nn.LSTM(n_features, hidden, batch_first=True)
        self.head = nn.Linear(hidden, 1)

    def forward(self, x):
        out, _ = self.lstm(x)
        return self.head(out[:, -1])


class Tester:
    def __init__(self, run_dir, model):
        self.run_dir = Path(run_dir)
        self.model = model

    def _load_weights(self, epoch):
        weight_file = self.run_dir / f"model_epoch{epoch:03d}.pt"
        state = torch.load(weight_file, map_location="cpu")  # expect: torch-load-unsafe
        self.model.load_state_dict(state)


def continue_training(run_dir, start_epoch, epochs, loader):
    model = ForecastLSTM(n_features=5)
    tester = Tester(run_dir, model)
    tester._load_weights(start_epoch)
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
    loss_fn = nn.MSELoss()
    for epoch in range(start_epoch + 1, start_epoch + 1 + epochs):
        model.train()
        for xb, yb in loader:
            optimizer.zero_grad()
            pred = model(xb)
            loss = loss_fn(pred, yb)
            loss.backward()
            optimizer.step()
        torch.save(model.state_dict(), Path(run_dir) / f"model_epoch{epoch:03d}.pt")


if __name__ == "__main__":
    x = torch.randn(64, 30, 5)
    y = torch.randn(64, 1)
    dl = DataLoader(TensorDataset(x, y), batch_size=16, shuffle=True)
    Path("runs").mkdir(exist_ok=True)
    torch.save(ForecastLSTM(5).state_dict(), "runs/model_epoch001.pt")
    continue_training("runs", 1, 2, dl)
