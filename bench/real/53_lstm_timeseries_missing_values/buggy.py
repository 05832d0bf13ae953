"""LSTM time-series predictor fed a price column with missing (NaN) entries: the loss turns NaN mid-epoch.

Source: https://github.com/jaungiers/LSTM-Neural-Network-for-Time-Series-Prediction/issues/77
Report: users of the repository's LSTM (windows normalised as p_i / p_0 - 1) see the training
loss go from ~0.005 to `nan` part-way through the first epoch on their own data; one of them:
"realized the preprocessing work is insufficient, and null values in any part of your dataset
can break the model, thus giving you nan losses". Reproduced with the repository's data loader
logic (sequence windows, per-window normalisation, in-order batches) on a synthetic price series
with a few missing entries.

expect: data-nonfinite
symptom: nonfinite
batch: 2
"""
import argparse

import numpy as np
import torch
import torch.nn as nn

ap = argparse.ArgumentParser()
ap.add_argument("--seed", type=int, default=0)
args = ap.parse_args()
torch.manual_seed(args.seed)
rng = np.random.default_rng(args.seed)

# "sp500.csv": a close-price column with a handful of empty cells (read as NaN)
n = 1600
close = 1000 * np.exp(np.cumsum(rng.normal(0.0003, 0.01, n))) + 30 * np.sin(np.arange(n) / 15)
close[rng.choice(np.arange(200, 1300), 4, replace=False)] = np.nan


class DataLoader:
    def __init__(self, column, split=0.85):
        i_split = int(len(column) * split)
        self.data_train = column[:i_split]

    def get_train_data(self, seq_len=50):
        windows = np.array([self.data_train[i:i + seq_len] for i in range(len(self.data_train) - seq_len)])
        windows = windows / windows[:, :1] - 1  # normalise_windows
        return windows[:, :-1, None], windows[:, -1:]


data = DataLoader(close)
x, y = data.get_train_data()
x, y = torch.tensor(x, dtype=torch.float32), torch.tensor(y, dtype=torch.float32)


class Model(nn.Module):
    def __init__(self):
        super().__init__()
        self.lstm1 = nn.LSTM(1, 32, batch_first=True)
        self.lstm2 = nn.LSTM(32, 32, batch_first=True)
        self.dense = nn.Linear(32, 1)

    def forward(self, s):
        h, _ = self.lstm1(s)
        h, _ = self.lstm2(h)
        return self.dense(h[:, -1])


model = Model()
opt = torch.optim.Adam(model.parameters(), lr=1e-3)
losses = []
for epoch in range(2):
    for k in range(0, len(x), 32):  # model.fit(..., shuffle=False)
        loss = nn.functional.mse_loss(model(x[k:k + 32]), y[k:k + 32])
        opt.zero_grad()
        loss.backward()
        opt.step()
        losses.append(loss.item())
print(f"final_loss={sum(losses[-10:]) / 10:.6g} acc={0.0:.4f}")
