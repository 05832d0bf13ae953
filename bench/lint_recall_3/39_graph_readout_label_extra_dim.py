# Source: https://github.com/IntelLabs/matsciml/pull/347
# Pitfall: Regression labels come out of the data pipeline as (N, 1) while the graph readout is (N,);
# the task's MSE loss silently broadcasts them to (N, N) instead of comparing each graph to its label.
# Reproduced in our own words, not the original code.
import torch
from torch import nn
import pytorch_lightning as pl


class ScalarRegressionTask(pl.LightningModule):
    def __init__(self, encoder, hidden_dim, target_key="energy", lr=1e-4):
        super().__init__()
        self.encoder = encoder
        self.readout = nn.Sequential(nn.Linear(hidden_dim, hidden_dim), nn.SiLU(), nn.Linear(hidden_dim, 1))
        self.target_key = target_key
        self.loss_func = nn.MSELoss()
        self.lr = lr

    def forward(self, graph):
        pooled = self.encoder(graph)
        return self.readout(pooled).squeeze(-1)

    def _compute_losses(self, batch):
        pred = self(batch["graph"])
        label = batch["targets"][self.target_key]
        return self.loss_func(pred, label)  # expect: loss-shape-broadcast

    def training_step(self, batch, batch_idx):
        loss = self._compute_losses(batch)
        self.log("train_mse", loss)
        return loss

    def configure_optimizers(self):
        return torch.optim.AdamW(self.parameters(), lr=self.lr)
