"""Satellite-image segmentation task that starts from pretrained backbone weights."""
import lightning.pytorch as pl
import torch
import torch.nn as nn
import torch.nn.functional as F


def load_backbone_weights(model: nn.Module, path: str) -> None:
    state_dict = torch.load(path, map_location="cpu")  # expect: torch-load-unsafe
    state_dict = {k.replace("backbone.", ""): v for k, v in state_dict.items() if k.startswith("backbone.")}
    missing, unexpected = model.load_state_dict(state_dict, strict=False)
    print(f"missing={len(missing)} unexpected={len(unexpected)}")


class SegTask(pl.LightningModule):
    def __init__(self, in_channels=13, num_classes=10, weights=None, lr=1e-3):
        super().__init__()
        self.backbone = nn.Sequential(nn.Conv2d(in_channels, 64, 3, padding=1), nn.ReLU(),
                                      nn.Conv2d(64, 64, 3, padding=1), nn.ReLU())
        self.head = nn.Conv2d(64, num_classes, 1)
        if weights is not None:
            load_backbone_weights(self.backbone, weights)
        self.lr = lr

    def forward(self, x):
        return self.head(self.backbone(x))

    def training_step(self, batch, batch_idx):
        logits = self(batch["image"])
        loss = F.cross_entropy(logits, batch["mask"])
        self.log("train_loss", loss)
        return loss

    def validation_step(self, batch, batch_idx):
        logits = self(batch["image"])
        self.log("val_loss", F.cross_entropy(logits, batch["mask"]))

    def configure_optimizers(self):
        return torch.optim.AdamW(self.parameters(), lr=self.lr)
