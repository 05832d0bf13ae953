"""Lightning token classifier that reports an epoch-level average loss.

The average is kept by a small accumulator object updated every step.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F
import pytorch_lightning as pl


class AverageLoss:
    def __init__(self):
        self.loss_sum = 0.0
        self.count = 0

    def update(self, loss, num_tokens):
        self.loss_sum += loss * num_tokens  # expect: running-loss-keeps-graph
        self.count += num_tokens

    def compute(self):
        return self.loss_sum / max(self.count, 1)

    def reset(self):
        self.loss_sum = 0.0
        self.count = 0


class Tagger(pl.LightningModule):
    def __init__(self, vocab_size=30000, num_tags=17, dim=256, lr=2e-3):
        super().__init__()
        self.save_hyperparameters()
        self.embed = nn.Embedding(vocab_size, dim, padding_idx=0)
        self.encoder = nn.LSTM(dim, dim, batch_first=True, bidirectional=True)
        self.proj = nn.Linear(2 * dim, num_tags)
        self.train_avg = AverageLoss()

    def forward(self, tokens):
        h, _ = self.encoder(self.embed(tokens))
        return self.proj(h)

    def training_step(self, batch, batch_idx):
        tokens, tags = batch
        logits = self(tokens)
        loss = F.cross_entropy(logits.transpose(1, 2), tags, ignore_index=-100)
        n = int((tags != -100).sum())
        self.train_avg.update(loss, n)
        self.log("train_loss_step", loss)
        return loss

    def on_train_epoch_end(self):
        self.log("train_loss_epoch", self.train_avg.compute())
        self.train_avg.reset()

    def validation_step(self, batch, batch_idx):
        tokens, tags = batch
        logits = self(tokens)
        loss = F.cross_entropy(logits.transpose(1, 2), tags, ignore_index=-100)
        self.log("val_loss", loss, prog_bar=True)

    def configure_optimizers(self):
        return torch.optim.Adam(self.parameters(), lr=self.hparams.lr)
