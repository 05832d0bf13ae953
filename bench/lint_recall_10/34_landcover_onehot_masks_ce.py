# Source: https://github.com/IGNF/FLAIR-1/commit/e12bc59e5cec4aa827684c9b0af11888087d78a6
# Pitfall: the dataset stores each mask as a one-hot stack (C, H, W) and the training step hands it straight to
#   CrossEntropyLoss, which then reads it as soft class probabilities; the fix takes argmax to class indices first.
# Reproduced in our own words, not the original code.
import numpy as np
import rasterio
import torch
from torch import nn
from torch.utils.data import Dataset
import lightning.pytorch as pl


class AerialPatches(Dataset):
    def __init__(self, image_paths, mask_paths, num_classes=13):
        self.image_paths = image_paths
        self.mask_paths = mask_paths
        self.num_classes = num_classes

    def read_msk(self, path):
        with rasterio.open(path) as src:
            labels = src.read()[0] - 1
        return np.stack([labels == c for c in range(self.num_classes)], axis=0)

    def __len__(self):
        return len(self.image_paths)

    def __getitem__(self, idx):
        with rasterio.open(self.image_paths[idx]) as src:
            img = src.read().astype(np.float32) / 255.0
        msk = self.read_msk(self.mask_paths[idx])
        return {"img": torch.from_numpy(img), "msk": torch.from_numpy(msk.astype(np.float32))}


class SegTask(pl.LightningModule):
    def __init__(self, model, num_classes=13, lr=2e-4):
        super().__init__()
        self.model = model
        self.num_classes = num_classes
        self.lr = lr
        self.criterion = nn.CrossEntropyLoss()

    def forward(self, x):
        return self.model(x)

    def training_step(self, batch, batch_idx):
        images, targets = batch["img"], batch["msk"]
        logits = self(images)
        loss = self.criterion(logits, targets)  # expect: one-hot-target
        self.log("train_loss", loss, on_step=True, on_epoch=True, prog_bar=True)
        return loss

    def validation_step(self, batch, batch_idx):
        images, targets = batch["img"], batch["msk"].argmax(dim=1)
        logits = self(images)
        loss = self.criterion(logits, targets)
        preds = logits.argmax(dim=1)
        self.log("val_loss", loss, on_epoch=True, sync_dist=True)
        self.log("val_acc", (preds == targets).float().mean(), on_epoch=True, sync_dist=True)

    def configure_optimizers(self):
        return torch.optim.AdamW(self.parameters(), lr=self.lr)
