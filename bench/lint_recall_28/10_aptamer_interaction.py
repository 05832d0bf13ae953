"""Aptamer-protein interaction fine-tuning (Lightning), mixed precision enabled in the Trainer."""
import lightning as L
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset


class InteractionModel(nn.Module):
    def __init__(self, apta_vocab=125, prot_vocab=25, dim=64):
        super().__init__()
        self.apta = nn.Embedding(apta_vocab, dim)
        self.prot = nn.Embedding(prot_vocab, dim)
        self.mixer = nn.TransformerEncoder(nn.TransformerEncoderLayer(dim, 4, batch_first=True), 2)
        self.out = nn.Linear(dim, 1)

    def forward(self, x_apta, x_prot):
        tokens = torch.cat([self.apta(x_apta), self.prot(x_prot)], dim=1)
        pooled = self.mixer(tokens).mean(dim=1)
        return torch.sigmoid(self.out(pooled))


class AptaTransLit(L.LightningModule):
    def __init__(self, model, lr=1e-5):
        super().__init__()
        self.model = model
        self.lr = lr

    def training_step(self, batch, batch_idx):
        x_apta, x_prot, y = batch
        y_hat = self.model(x_apta, x_prot)
        loss = F.binary_cross_entropy(y_hat, y.float())  # expect: sigmoid-before-bce
        self.log("train_loss", loss, prog_bar=True)
        return loss

    def configure_optimizers(self):
        return torch.optim.AdamW(self.model.parameters(), lr=self.lr, weight_decay=1e-2)


if __name__ == "__main__":
    xa = torch.randint(0, 125, (64, 40))
    xp = torch.randint(0, 25, (64, 100))
    y = torch.randint(0, 2, (64, 1))
    dl = DataLoader(TensorDataset(xa, xp, y), batch_size=16, shuffle=True)
    lit = AptaTransLit(InteractionModel())
    trainer = L.Trainer(max_epochs=1, precision="16-mixed")
    trainer.fit(lit, train_dataloaders=dl)
