"""Binary change-detection trainer (Lightning): a UNet takes the two co-registered
images stacked along the channel axis and predicts one change logit per pixel."""
import torch
import torch.nn as nn
import pytorch_lightning as pl
import segmentation_models_pytorch as smp
from torchmetrics import MetricCollection
from torchmetrics.classification import BinaryAccuracy, BinaryJaccardIndex


class ChangeDetectionTask(pl.LightningModule):
    def __init__(self, in_channels=3, backbone="resnet50", lr=1e-3, pos_weight=None):
        super().__init__()
        self.save_hyperparameters()
        self.model = smp.Unet(encoder_name=backbone, in_channels=2 * in_channels, classes=1)
        self.criterion = nn.BCELoss(weight=pos_weight)
        metrics = MetricCollection({"acc": BinaryAccuracy(), "iou": BinaryJaccardIndex()})
        self.train_metrics = metrics.clone(prefix="train_")
        self.val_metrics = metrics.clone(prefix="val_")

    def forward(self, image1, image2):
        return self.model(torch.cat([image1, image2], dim=1))

    def _shared_step(self, batch):
        y_hat = self(batch["image1"], batch["image2"])
        y = batch["mask"].float()
        if y.ndim != y_hat.ndim:
            y = y.unsqueeze(1)
        loss = self.criterion(y_hat, y)  # expect: bce-on-logits
        return loss, y_hat, y

    def training_step(self, batch, batch_idx):
        loss, y_hat, y = self._shared_step(batch)
        self.train_metrics(torch.sigmoid(y_hat), y.long())
        self.log("train_loss", loss)
        return loss

    def on_train_epoch_end(self):
        self.log_dict(self.train_metrics.compute())
        self.train_metrics.reset()

    def validation_step(self, batch, batch_idx):
        loss, y_hat, y = self._shared_step(batch)
        self.val_metrics(torch.sigmoid(y_hat), y.long())
        self.log("val_loss", loss)

    def on_validation_epoch_end(self):
        self.log_dict(self.val_metrics.compute())
        self.val_metrics.reset()

    def configure_optimizers(self):
        optimizer = torch.optim.AdamW(self.parameters(), lr=self.hparams.lr)
        scheduler = torch.optim.lr_scheduler.ReduceLROnPlateau(optimizer, patience=6)
        return {"optimizer": optimizer, "lr_scheduler": {"scheduler": scheduler, "monitor": "val_loss"}}
