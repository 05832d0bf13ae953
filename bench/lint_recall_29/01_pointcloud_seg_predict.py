"""Point-cloud semantic segmentation task: training step and prediction head."""
import torch
import torch.nn as nn
import torch.nn.functional as F
import pytorch_lightning as pl


class PointNetSegHead(nn.Module):
    def __init__(self, in_dim, num_classes):
        super().__init__()
        self.mlp = nn.Sequential(
            nn.Conv1d(in_dim, 128, 1), nn.BatchNorm1d(128), nn.ReLU(),
            nn.Conv1d(128, num_classes, 1),
        )

    def forward(self, feats):
        return self.mlp(feats)  # (B, C, N)


class PointCloudSegmentation(pl.LightningModule):
    def __init__(self, in_dim=6, num_classes=13, lr=1e-3):
        super().__init__()
        self.save_hyperparameters()
        self.head = PointNetSegHead(in_dim, num_classes)

    def to_loss_format(self, x):
        # (B, C, N) -> (B * N, C)
        return x.permute(0, 2, 1).reshape(-1, x.shape[1])

    def forward(self, batch):
        return self.head(batch["features"])

    def training_step(self, batch, batch_idx):
        logits = self.to_loss_format(self(batch))
        loss = F.cross_entropy(logits, batch["labels"].reshape(-1))
        self.log("train_loss", loss)
        return loss

    def validation_step(self, batch, batch_idx):
        logits = self.to_loss_format(self(batch))
        loss = F.cross_entropy(logits, batch["labels"].reshape(-1))
        self.log("val_loss", loss)

    def predict_step(self, batch, batch_idx, dataloader_idx=0):
        x = self(batch)
        return F.softmax(self.to_loss_format(x))  # expect: softmax-without-dim

    def configure_optimizers(self):
        return torch.optim.Adam(self.parameters(), lr=self.hparams.lr)
