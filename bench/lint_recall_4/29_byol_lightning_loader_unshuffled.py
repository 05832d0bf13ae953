# Source: https://github.com/lucidrains/byol-pytorch/issues/23
# Pitfall: the Lightning example's training DataLoader leaves shuffle at its default (False), so
#   every epoch sees the images in the same order; the author added shuffle=True.
# Reproduced in our own words, not the original code.
import argparse

import pytorch_lightning as pl
import torch
from torch.utils.data import DataLoader, Dataset


class FolderImages(Dataset):
    def __init__(self, paths, transform):
        self.paths = paths
        self.transform = transform

    def __len__(self):
        return len(self.paths)

    def __getitem__(self, idx):
        from PIL import Image
        return self.transform(Image.open(self.paths[idx]).convert("RGB"))


class SelfSupervisedLearner(pl.LightningModule):
    def __init__(self, learner, lr):
        super().__init__()
        self.learner = learner
        self.lr = lr

    def forward(self, images):
        return self.learner(images)

    def training_step(self, images, _):
        loss = self.forward(images)
        self.log("loss", loss)
        return loss

    def configure_optimizers(self):
        return torch.optim.Adam(self.parameters(), lr=self.lr)

    def on_before_zero_grad(self, _):
        self.learner.update_moving_average()


def main(learner, paths, transform):
    parser = argparse.ArgumentParser()
    parser.add_argument("--batch_size", type=int, default=32)
    parser.add_argument("--epochs", type=int, default=1000)
    parser.add_argument("--num_workers", type=int, default=8)
    args = parser.parse_args()
    ds = FolderImages(paths, transform)
    train_loader = DataLoader(ds, batch_size=args.batch_size, num_workers=args.num_workers)  # expect: train-loader-not-shuffled
    model = SelfSupervisedLearner(learner, lr=3e-4)
    trainer = pl.Trainer(max_epochs=args.epochs, accumulate_grad_batches=1)
    trainer.fit(model, train_loader)
