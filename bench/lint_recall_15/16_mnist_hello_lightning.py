"""Hello-world Lightning example on MNIST."""
import pytorch_lightning as pl
import torch
import torch.nn.functional as F
from torch import nn
from torch.utils.data import DataLoader
from torchvision import transforms
from torchvision.datasets import MNIST

BATCH_SIZE = 256 if torch.cuda.is_available() else 64


class MNISTModel(pl.LightningModule):
    def __init__(self):
        super().__init__()
        self.l1 = nn.Linear(28 * 28, 10)

    def forward(self, x):
        return torch.relu(self.l1(x.view(x.size(0), -1)))

    def training_step(self, batch, batch_nb):
        x, y = batch
        loss = F.cross_entropy(self(x), y)
        self.log("train_loss", loss)
        return loss

    def configure_optimizers(self):
        return torch.optim.Adam(self.parameters(), lr=0.02)


mnist_model = MNISTModel()
train_ds = MNIST(".", train=True, download=True, transform=transforms.ToTensor())
train_loader = DataLoader(train_ds, batch_size=BATCH_SIZE)  # expect: train-loader-not-shuffled
trainer = pl.Trainer(accelerator="auto", devices=1, max_epochs=3)
trainer.fit(mnist_model, train_loader)
