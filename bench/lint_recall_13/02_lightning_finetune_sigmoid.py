"""Lightning transfer-learning module for multi-label image tagging."""
import pytorch_lightning as pl
import torch
import torch.nn as nn
import torch.nn.functional as F
from torchvision import models


class TransferLearningModel(pl.LightningModule):
    def __init__(self, num_labels: int = 2, lr: float = 1e-3):
        super().__init__()
        self.save_hyperparameters()
        backbone = models.resnet50(weights="IMAGENET1K_V1")
        self.feature_extractor = nn.Sequential(*list(backbone.children())[:-1])
        for p in self.feature_extractor.parameters():
            p.requires_grad = False
        self.fc = nn.Sequential(nn.Linear(2048, 256), nn.ReLU(), nn.Linear(256, num_labels))
        self.loss_func = F.binary_cross_entropy

    def forward(self, x):
        x = self.feature_extractor(x).flatten(1)
        x = self.fc(x)
        return torch.sigmoid(x)

    def loss(self, probs, labels):
        return self.loss_func(input=probs, target=labels)

    def training_step(self, batch, batch_idx):
        x, y = batch
        y_true = y.float()
        y_probs = self.forward(x)
        train_loss = self.loss(y_probs, y_true)  # expect: sigmoid-before-bce
        self.log("train_loss", train_loss, prog_bar=True)
        return train_loss

    def validation_step(self, batch, batch_idx):
        x, y = batch
        y_probs = self.forward(x)
        acc = ((y_probs > 0.5).float() == y.float()).float().mean()
        self.log("val_acc", acc, prog_bar=True)

    def configure_optimizers(self):
        params = [p for p in self.parameters() if p.requires_grad]
        return torch.optim.Adam(params, lr=self.hparams.lr)
