# Source: https://github.com/Lightning-Universe/lightning-bolts/issues/654
# Pitfall: The logistic-regression module feeds nll_loss with log_softmax of a softmax of the linear
# output, i.e. the class scores are normalised twice and the gradients shrink.
# Reproduced in our own words, not the original code.
import torch
from torch import nn
from torch.nn import functional as F
import pytorch_lightning as pl


class SoftmaxRegression(pl.LightningModule):
    def __init__(self, n_features, n_classes, lr=1e-3):
        super().__init__()
        self.save_hyperparameters()
        self.linear = nn.Linear(n_features, n_classes)

    def forward(self, x):
        return F.softmax(self.linear(x), dim=-1)

    def training_step(self, batch, batch_idx):
        x, y = batch
        x = x.view(x.size(0), -1)
        probs = self(x)
        loss = F.nll_loss(F.log_softmax(probs, dim=-1), y)  # expect: softmax-before-cross-entropy
        self.log("train_loss", loss)
        return loss

    def configure_optimizers(self):
        return torch.optim.Adam(self.parameters(), lr=self.hparams.lr)
