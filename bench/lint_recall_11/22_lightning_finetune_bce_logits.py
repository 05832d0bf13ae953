"""Transfer learning with a frozen ResNet backbone for cats-vs-dogs (Lightning module)."""
import pytorch_lightning as pl
import torch
import torch.nn.functional as F
from torch import nn, optim
from torchvision import models


class TransferLearningModel(pl.LightningModule):
    def __init__(self, lr=1e-3, milestones=(5, 10)):
        super().__init__()
        self.save_hyperparameters()
        backbone = models.resnet50(weights=models.ResNet50_Weights.DEFAULT)
        self.feature_extractor = nn.Sequential(*list(backbone.children())[:-1])
        for p in self.feature_extractor.parameters():
            p.requires_grad = False
        self.fc = nn.Sequential(nn.Linear(2048, 256), nn.ReLU(), nn.Dropout(0.2), nn.Linear(256, 1))
        self.loss_func = F.binary_cross_entropy_with_logits

    def forward(self, x):
        x = self.feature_extractor(x).squeeze(-1).squeeze(-1)
        x = self.fc(x)
        return torch.sigmoid(x)

    def loss(self, preds, labels):
        return self.loss_func(input=preds, target=labels)  # expect: sigmoid-before-bce-with-logits

    def training_step(self, batch, batch_idx):
        x, y = batch
        y_scores = self.forward(x)
        y_true = y.view((-1, 1)).type_as(x)
        train_loss = self.loss(y_scores, y_true)
        self.log("train_loss", train_loss, prog_bar=True)
        return train_loss

    def validation_step(self, batch, batch_idx):
        x, y = batch
        y_scores = self.forward(x)
        y_true = y.view((-1, 1)).type_as(x)
        self.log("val_loss", self.loss(y_scores, y_true), prog_bar=True)
        self.log("val_acc", ((y_scores > 0.5).float() == y_true).float().mean(), prog_bar=True)

    def configure_optimizers(self):
        trainable = [p for p in self.parameters() if p.requires_grad]
        optimizer = optim.Adam(trainable, lr=self.hparams.lr)
        scheduler = optim.lr_scheduler.MultiStepLR(optimizer, milestones=list(self.hparams.milestones), gamma=0.1)
        return [optimizer], [scheduler]
