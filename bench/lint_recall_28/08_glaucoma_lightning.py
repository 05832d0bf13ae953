"""Binary glaucoma classification on fundus images, Lightning module trained with 16-bit precision."""
import pytorch_lightning as pl
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset


class GlaucomaClassifier(pl.LightningModule):
    def __init__(self, lr=1e-3):
        super().__init__()
        self.save_hyperparameters()
        self.features = nn.Sequential(
            nn.Conv2d(3, 16, 3, stride=2), nn.ReLU(),
            nn.Conv2d(16, 32, 3, stride=2), nn.ReLU(),
            nn.AdaptiveAvgPool2d(1), nn.Flatten(),
        )
        self.classifier = nn.Linear(32, 1)
        self.loss_fn = nn.BCELoss()

    def forward(self, x):
        return torch.sigmoid(self.classifier(self.features(x)))

    def training_step(self, batch, batch_idx):
        images, labels = batch
        posteriors = self(images)
        loss = self.loss_fn(posteriors, labels)  # expect: sigmoid-before-bce
        self.log("train/loss", loss)
        return loss

    def validation_step(self, batch, batch_idx):
        images, labels = batch
        posteriors = self(images)
        acc = ((posteriors > 0.5).float() == labels).float().mean()
        self.log("val/acc", acc)

    def configure_optimizers(self):
        return torch.optim.Adam(self.parameters(), lr=self.hparams.lr)


if __name__ == "__main__":
    x = torch.randn(32, 3, 64, 64)
    y = torch.randint(0, 2, (32, 1)).float()
    train_dl = DataLoader(TensorDataset(x, y), batch_size=8, shuffle=True)
    val_dl = DataLoader(TensorDataset(x, y), batch_size=8)
    trainer = pl.Trainer(max_epochs=1, precision=16, accelerator="gpu", devices=1)
    trainer.fit(GlaucomaClassifier(), train_dl, val_dl)
