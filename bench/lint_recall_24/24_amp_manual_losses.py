"""Manual-optimization module that keeps a per-step loss history for a progress callback."""
import torch
from torch import nn
import lightning.pytorch as pl


class HistoryModule(pl.LightningModule):
    def __init__(self):
        super().__init__()
        self.automatic_optimization = False
        self.layer = nn.Linear(32, 2)
        self.losses = []

    def training_step(self, batch, batch_idx):
        x, y = batch
        opt = self.optimizers()
        loss = nn.functional.cross_entropy(self.layer(x), y)
        opt.zero_grad()
        self.manual_backward(loss)
        opt.step()
        self.losses.append(loss)  # expect: running-loss-keeps-graph
        return loss

    def on_train_epoch_end(self):
        if self.losses:
            print("epoch mean loss", sum(l.item() for l in self.losses) / len(self.losses))

    def configure_optimizers(self):
        return torch.optim.AdamW(self.parameters(), lr=1e-3)
