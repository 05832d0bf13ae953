"""Batch prediction helper for a Lightning time-series forecaster."""
import torch
import torch.nn as nn
import lightning.pytorch as pl


class QuantileForecaster(pl.LightningModule):
    def __init__(self, n_features, horizon, quantiles=(0.1, 0.5, 0.9), lr=1e-3):
        super().__init__()
        self.save_hyperparameters()
        self.encoder = nn.GRU(n_features, 64, batch_first=True)
        self.head = nn.Linear(64, horizon * len(quantiles))
        self.quantiles = torch.tensor(quantiles)

    def forward(self, x):
        _, h = self.encoder(x["encoder_cont"])
        out = self.head(h[-1])
        return out.view(out.size(0), self.hparams.horizon, -1)

    def quantile_loss(self, pred, target):
        q = self.quantiles.to(pred.device)
        errors = target.unsqueeze(-1) - pred
        return torch.max((q - 1) * errors, q * errors).mean()

    def training_step(self, batch, batch_idx):
        x, y = batch
        loss = self.quantile_loss(self(x), y)
        self.log("train_loss", loss)
        return loss

    def validation_step(self, batch, batch_idx):
        x, y = batch
        self.log("val_loss", self.quantile_loss(self(x), y))

    def configure_optimizers(self):
        return torch.optim.Adam(self.parameters(), lr=self.hparams.lr)

    def predict_dataloader_outputs(self, dataloader):
        self.eval()
        outputs = []
        with torch.no_grad():
            for x, _ in dataloader:
                for name in x.keys():
                    if isinstance(x[name], torch.Tensor):
                        x[name].to(self.device)  # expect: tensor-op-result-discarded
                outputs.append(self(x)[..., 1].cpu())
        return torch.cat(outputs, dim=0)
