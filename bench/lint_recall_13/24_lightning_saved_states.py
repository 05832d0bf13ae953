"""Lightning module that snapshots its weights after each epoch to compare later."""
import pytorch_lightning as pl
import torch
import torch.nn as nn
import torch.nn.functional as F


class SnapshotModel(pl.LightningModule):
    def __init__(self, in_dim=32, n_classes=4, lr=0.1):
        super().__init__()
        self.save_hyperparameters()
        self.layer = nn.Sequential(nn.Linear(in_dim, 64), nn.ReLU(), nn.Linear(64, n_classes))
        self.saved_states = []

    def forward(self, x):
        return self.layer(x)

    def training_step(self, batch, batch_idx):
        x, y = batch
        loss = F.cross_entropy(self(x), y)
        self.log("train_loss", loss)
        return loss

    def on_train_epoch_end(self):
        self.saved_states.append(self.state_dict().copy())  # expect: state-dict-not-copied

    def weights_changed(self):
        if len(self.saved_states) < 2:
            return False
        first, last = self.saved_states[0], self.saved_states[-1]
        return any(not torch.equal(first[k], last[k]) for k in first)

    def configure_optimizers(self):
        return torch.optim.SGD(self.parameters(), lr=self.hparams.lr)
