"""Multinomial logistic regression as a LightningModule (tabular baseline)."""
import torch
import torch.nn.functional as F
from lightning.pytorch import LightningModule
from torch import nn
from torch.optim import Adam
from torchmetrics.functional import accuracy


class LogisticRegression(LightningModule):
    def __init__(self, input_dim, num_classes, bias=True, learning_rate=1e-4, l1_strength=0.0, l2_strength=0.0):
        super().__init__()
        self.save_hyperparameters()
        self.linear = nn.Linear(input_dim, num_classes, bias=bias)

    def forward(self, x):
        return F.softmax(self.linear(x), dim=-1)

    def _regularized_loss(self, loss):
        if self.hparams.l1_strength > 0:
            loss = loss + self.hparams.l1_strength * sum(p.abs().sum() for p in self.parameters())
        if self.hparams.l2_strength > 0:
            loss = loss + self.hparams.l2_strength * sum(p.pow(2).sum() for p in self.parameters())
        return loss

    def training_step(self, batch, batch_idx):
        x, y = batch
        x = x.view(x.size(0), -1)
        loss = F.cross_entropy(F.softmax(self.linear(x)), y, reduction="sum")  # expect: softmax-before-cross-entropy, softmax-without-dim
        loss = self._regularized_loss(loss) / x.size(0)
        self.log("train_loss", loss)
        return loss

    def validation_step(self, batch, batch_idx):
        x, y = batch
        x = x.view(x.size(0), -1)
        probs = self(x)
        self.log("val_acc", accuracy(probs.argmax(dim=-1), y, task="multiclass", num_classes=self.hparams.num_classes))

    def configure_optimizers(self):
        return Adam(self.parameters(), lr=self.hparams.learning_rate)
