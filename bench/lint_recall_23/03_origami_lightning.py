"""Lightning module for a chromatin-contact regressor; restores weights for prediction."""
import pytorch_lightning as pl
import torch
import torch.nn as nn
import torch.nn.functional as F


class ContactNet(pl.LightningModule):
    def __init__(self, seq_channels=5, hidden=64, lr=2e-4):
        super().__init__()
        self.save_hyperparameters()
        self.encoder = nn.Sequential(
            nn.Conv1d(seq_channels, hidden, 9, padding=4), nn.ReLU(),
            nn.Conv1d(hidden, hidden, 9, padding=4), nn.ReLU(),
        )
        self.head = nn.Linear(hidden, hidden)

    def forward(self, seq):
        feats = self.encoder(seq).mean(dim=-1)
        h = self.head(feats)
        return torch.einsum("bi,bj->bij", h, h)

    def training_step(self, batch, batch_idx):
        seq, target = batch
        loss = F.mse_loss(self(seq), target)
        self.log("train_loss", loss)
        return loss

    def validation_step(self, batch, batch_idx):
        seq, target = batch
        self.log("val_loss", F.mse_loss(self(seq), target))

    def configure_optimizers(self):
        return torch.optim.Adam(self.parameters(), lr=self.hparams.lr)


def load_for_prediction(ckpt_path):
    model = ContactNet()
    checkpoint = torch.load(ckpt_path, map_location="cpu")  # expect: torch-load-unsafe
    model.load_state_dict(checkpoint["state_dict"])
    model.eval()
    return model


@torch.no_grad()
def predict_region(model, seq):
    return model(seq.unsqueeze(0)).squeeze(0)


if __name__ == "__main__":
    net = load_for_prediction("epoch=12.ckpt")
    print(predict_region(net, torch.randn(5, 2048)).shape)
