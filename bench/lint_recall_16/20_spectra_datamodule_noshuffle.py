"""Lightning data module + model for de novo peptide sequencing from mass spectra."""
from typing import Optional

import lightning.pytorch as pl
import torch
import torch.nn.functional as F
from torch.utils.data import DataLoader, Dataset


class SpectrumDataset(Dataset):
    def __init__(self, n_spectra=1000, n_peaks=150, max_len=30, vocab=28):
        self.mz = torch.rand(n_spectra, n_peaks) * 2000.0
        self.intensity = torch.rand(n_spectra, n_peaks)
        self.peptides = torch.randint(1, vocab, (n_spectra, max_len))

    def __len__(self):
        return self.mz.shape[0]

    def __getitem__(self, idx):
        spectrum = torch.stack([self.mz[idx], self.intensity[idx]], dim=-1)
        return spectrum, self.peptides[idx]


class DeNovoDataModule(pl.LightningDataModule):
    def __init__(self, train_batch_size=128, eval_batch_size=1024, n_workers: Optional[int] = None):
        super().__init__()
        self.train_batch_size = train_batch_size
        self.eval_batch_size = eval_batch_size
        self.n_workers = n_workers if n_workers is not None else 4

    def setup(self, stage=None):
        self.train_dataset = SpectrumDataset(2000)
        self.valid_dataset = SpectrumDataset(200)

    def train_dataloader(self):
        return DataLoader(self.train_dataset, batch_size=self.train_batch_size,  # expect: train-loader-not-shuffled
                          num_workers=self.n_workers, pin_memory=True)

    def val_dataloader(self):
        return DataLoader(self.valid_dataset, batch_size=self.eval_batch_size,
                          num_workers=self.n_workers, pin_memory=True)


class Spec2Pep(pl.LightningModule):
    def __init__(self, dim=128, vocab=28, max_len=30, lr=5e-4):
        super().__init__()
        self.save_hyperparameters()
        self.peak_encoder = torch.nn.Linear(2, dim)
        layer = torch.nn.TransformerEncoderLayer(dim, 4, 256, batch_first=True)
        self.encoder = torch.nn.TransformerEncoder(layer, 2)
        self.aa_head = torch.nn.Linear(dim, vocab * max_len)

    def forward(self, spectra):
        h = self.encoder(self.peak_encoder(spectra)).mean(dim=1)
        return self.aa_head(h).view(spectra.shape[0], self.hparams.max_len, self.hparams.vocab)

    def _loss(self, batch):
        spectra, peptides = batch
        logits = self(spectra)
        return F.cross_entropy(logits.transpose(1, 2), peptides, ignore_index=0)

    def training_step(self, batch, batch_idx):
        loss = self._loss(batch)
        self.log("train_loss", loss)
        return loss

    def validation_step(self, batch, batch_idx):
        self.log("valid_loss", self._loss(batch), prog_bar=True)

    def configure_optimizers(self):
        return torch.optim.Adam(self.parameters(), lr=self.hparams.lr)


if __name__ == "__main__":
    trainer = pl.Trainer(max_epochs=2, accelerator="auto")
    trainer.fit(Spec2Pep(), datamodule=DeNovoDataModule())
