"""Semantic segmentation of aerial tiles as a LightningModule; masks are one-hot encoded per batch."""
import pytorch_lightning as pl
import torch
import torch.nn as nn
import torch.nn.functional as F


class SegmentationTask(pl.LightningModule):
    def __init__(self, model, num_classes=13, lr=2e-4):
        super().__init__()
        self.model = model
        self.num_classes = num_classes
        self.lr = lr
        self.criterion = nn.CrossEntropyLoss()

    def forward(self, x):
        return self.model(x)

    def step(self, batch):
        images = batch["img"]
        targets = F.one_hot(batch["msk"].long(), self.num_classes).permute(0, 3, 1, 2).float()
        logits = self(images)
        loss = self.criterion(logits, targets)  # expect: one-hot-target
        preds = logits.argmax(dim=1)
        return loss, preds, targets.argmax(dim=1)

    def training_step(self, batch, batch_idx):
        loss, _, _ = self.step(batch)
        self.log("train_loss", loss, on_epoch=True)
        return loss

    def validation_step(self, batch, batch_idx):
        loss, preds, labels = self.step(batch)
        self.log("val_loss", loss)
        self.log("val_acc", (preds == labels).float().mean())

    def configure_optimizers(self):
        optimizer = torch.optim.AdamW(self.model.parameters(), lr=self.lr)
        scheduler = torch.optim.lr_scheduler.ReduceLROnPlateau(optimizer, factor=0.5, patience=5)
        return {"optimizer": optimizer, "lr_scheduler": {"scheduler": scheduler, "monitor": "val_loss"}}
