"""Base class for PyTorch time-series regressors: epoch loop, early metrics and predict()."""
import numpy as np
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset


class FCNNetwork(nn.Module):
    def __init__(self, in_channels, n_filters=(128, 256, 128)):
        super().__init__()
        layers, c = [], in_channels
        for k, f in zip((8, 5, 3), n_filters):
            layers += [nn.Conv1d(c, f, k, padding="same"), nn.BatchNorm1d(f), nn.ReLU()]
            c = f
        self.body = nn.Sequential(*layers)
        self.out = nn.Linear(c, 1)

    def forward(self, X):
        return self.out(self.body(X).mean(dim=-1))


class BaseDeepRegressorTorch:
    def __init__(self, num_epochs=16, batch_size=8, lr=1e-3, device="cpu"):
        self.num_epochs = num_epochs
        self.batch_size = batch_size
        self.lr = lr
        self.device = device

    def _build_dataloader(self, X, y=None, shuffle=False):
        Xt = torch.as_tensor(X, dtype=torch.float32)
        if y is None:
            return DataLoader(TensorDataset(Xt), batch_size=self.batch_size)
        yt = torch.as_tensor(y, dtype=torch.float32)
        return DataLoader(TensorDataset(Xt, yt), batch_size=self.batch_size, shuffle=shuffle)

    def _run_epoch(self, dataloader):
        self.network.train()
        losses = []
        for inputs, outputs in dataloader:
            inputs, outputs = inputs.to(self.device), outputs.to(self.device)
            self._optimizer.zero_grad()
            y_pred = self.network(inputs)
            loss = self._criterion(y_pred, outputs)  # expect: loss-shape-broadcast
            loss.backward()
            self._optimizer.step()
            losses.append(loss.item())
        return float(np.mean(losses))

    def fit(self, X, y):
        self.network = FCNNetwork(X.shape[1]).to(self.device)
        self._criterion = nn.MSELoss()
        self._optimizer = torch.optim.Adam(self.network.parameters(), lr=self.lr)
        loader = self._build_dataloader(X, y, shuffle=True)
        for epoch in range(self.num_epochs):
            self._run_epoch(loader)
        return self

    def predict(self, X):
        self.network.eval()
        preds = []
        with torch.no_grad():
            for (inputs,) in self._build_dataloader(X):
                preds.append(self.network(inputs.to(self.device)).squeeze(-1).cpu().numpy())
        return np.concatenate(preds)
