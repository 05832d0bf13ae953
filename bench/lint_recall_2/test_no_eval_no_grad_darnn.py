# Source: https://github.com/Zhenye-Na/DA-RNN/issues/30
# Pitfall: The test routine calls the encoder/decoder in training mode and without torch.no_grad(), so dropout is active during evaluation and a graph is built for every test batch.
# Reproduced in our own words, not the original code.
import numpy as np
import torch
import torch.nn as nn


class DualStageForecaster(nn.Module):
    def __init__(self, n_series, hidden=64, dropout=0.2):
        super().__init__()
        self.encoder = nn.LSTM(n_series, hidden, batch_first=True)
        self.drop = nn.Dropout(dropout)
        self.head = nn.Linear(hidden, 1)

    def forward(self, x):
        enc, _ = self.encoder(x)
        return self.head(self.drop(enc[:, -1])).squeeze(-1)


def fit(model, X, y, epochs=30, lr=1e-3):
    optimizer = torch.optim.Adam(model.parameters(), lr=lr)
    loss_fn = nn.MSELoss()
    for _ in range(epochs):
        model.train()
        optimizer.zero_grad()
        loss = loss_fn(model(X), y)
        loss.backward()
        optimizer.step()


def test(model, X_test, batch_size=128):
    preds = []
    for start in range(0, len(X_test), batch_size):
        batch = X_test[start:start + batch_size]
        y_hat = model(batch)  # expect: validation-in-train-mode
        preds.append(y_hat.detach().cpu().numpy())
    return np.concatenate(preds)
