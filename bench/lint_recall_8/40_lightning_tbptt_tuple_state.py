# Source: https://github.com/Lightning-AI/pytorch-lightning/pull/8145
# Pitfall: with truncated BPTT the LSTM (h, c) tuple from one split is handed to the next split
# without .detach(), so every backward walks back into already-freed earlier splits (error / memory growth).
# Reproduced in our own words, not the original code.
import pytorch_lightning as pl
import torch
import torch.nn as nn
import torch.nn.functional as F


class SensorForecaster(pl.LightningModule):
    def __init__(self, n_features=8, hidden=128, split_len=25, lr=3e-4):
        super().__init__()
        self.save_hyperparameters()
        self.automatic_optimization = False
        self.lstm = nn.LSTM(n_features, hidden, batch_first=True)
        self.proj = nn.Linear(hidden, n_features)

    def training_step(self, batch, batch_idx):
        series, future = batch
        opt = self.optimizers()
        state = None
        split_len = self.hparams.split_len
        for start in range(0, series.size(1), split_len):
            chunk = series[:, start:start + split_len]
            target = future[:, start:start + split_len]
            out, state = self.lstm(chunk, state)  # expect: hidden-state-not-detached
            loss = F.mse_loss(self.proj(out), target)
            opt.zero_grad()
            self.manual_backward(loss)
            opt.step()
            self.log("train_loss", loss.detach(), prog_bar=True)

    def validation_step(self, batch, batch_idx):
        series, future = batch
        out, _ = self.lstm(series)
        self.log("val_loss", F.mse_loss(self.proj(out), future))

    def configure_optimizers(self):
        return torch.optim.Adam(self.parameters(), lr=self.hparams.lr)
