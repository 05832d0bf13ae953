"""LightningDataModule for a tabular+text multimodal predictor."""
import pandas as pd
import torch
from torch.utils.data import DataLoader, Dataset
import lightning.pytorch as pl


class DataFrameDataset(Dataset):
    def __init__(self, df: pd.DataFrame, feature_cols, label_col):
        self.features = torch.tensor(df[feature_cols].values, dtype=torch.float32)
        self.labels = torch.tensor(df[label_col].values, dtype=torch.long)

    def __len__(self):
        return len(self.labels)

    def __getitem__(self, idx):
        return {"features": self.features[idx], "label": self.labels[idx]}


def collate_dicts(batch):
    return {
        "features": torch.stack([b["features"] for b in batch]),
        "label": torch.stack([b["label"] for b in batch]),
    }


class MultiModalDataModule(pl.LightningDataModule):
    def __init__(self, train_df, val_df, feature_cols, label_col, per_gpu_batch_size=32, num_workers=4):
        super().__init__()
        self.train_df = train_df
        self.val_df = val_df
        self.feature_cols = feature_cols
        self.label_col = label_col
        self.per_gpu_batch_size = per_gpu_batch_size
        self.num_workers = num_workers

    def setup(self, stage=None):
        self.train_dataset = DataFrameDataset(self.train_df, self.feature_cols, self.label_col)
        self.val_dataset = DataFrameDataset(self.val_df, self.feature_cols, self.label_col)

    def train_dataloader(self):
        return DataLoader(self.train_dataset, batch_size=self.per_gpu_batch_size, num_workers=self.num_workers, pin_memory=False, collate_fn=collate_dicts)  # expect: train-loader-not-shuffled

    def val_dataloader(self):
        return DataLoader(self.val_dataset, batch_size=self.per_gpu_batch_size, num_workers=self.num_workers, collate_fn=collate_dicts)


class TabularClassifier(pl.LightningModule):
    def __init__(self, n_features, n_classes, lr=1e-3):
        super().__init__()
        self.save_hyperparameters()
        self.net = torch.nn.Sequential(
            torch.nn.Linear(n_features, 128), torch.nn.ReLU(), torch.nn.Linear(128, n_classes))
        self.loss_fn = torch.nn.CrossEntropyLoss()

    def training_step(self, batch, batch_idx):
        logits = self.net(batch["features"])
        loss = self.loss_fn(logits, batch["label"])
        self.log("train_loss", loss)
        return loss

    def validation_step(self, batch, batch_idx):
        logits = self.net(batch["features"])
        self.log("val_loss", self.loss_fn(logits, batch["label"]))
        acc = (logits.argmax(dim=1) == batch["label"]).float().mean()
        self.log("val_acc", acc)

    def configure_optimizers(self):
        return torch.optim.AdamW(self.parameters(), lr=self.hparams.lr)


def fit(train_df, val_df, feature_cols, label_col, n_classes):
    dm = MultiModalDataModule(train_df, val_df, feature_cols, label_col)
    model = TabularClassifier(len(feature_cols), n_classes)
    trainer = pl.Trainer(max_epochs=10, accelerator="auto", devices=1)
    trainer.fit(model, datamodule=dm)
    return model
