"""Writes tests/importers/data/lightning_metrics.csv with Lightning 2.x's CSVLogger."""
import sys, torch
from torch import nn
import lightning as L
from lightning.pytorch.loggers import CSVLogger
from lightning.pytorch.callbacks import LearningRateMonitor

class M(L.LightningModule):
    def __init__(self):
        super().__init__(); self.net = nn.Sequential(nn.Linear(4, 8), nn.ReLU(), nn.Linear(8, 1))
    def training_step(self, b, i):
        x, y = b; loss = nn.functional.mse_loss(self.net(x), y)
        if self.global_step >= 120: loss = loss * float("nan")
        self.log("train_loss", loss, on_step=True, on_epoch=True); return loss
    def validation_step(self, b, i):
        x, y = b; self.log("val_loss", nn.functional.mse_loss(self.net(x), y))
    def configure_optimizers(self):
        o = torch.optim.Adam(self.parameters(), 1e-3)
        return {"optimizer": o, "lr_scheduler": torch.optim.lr_scheduler.StepLR(o, 50, 0.5)}

torch.manual_seed(0)
X = torch.randn(400, 4); Y = X.sum(1, keepdim=True)
dl = torch.utils.data.DataLoader(torch.utils.data.TensorDataset(X, Y), batch_size=8)
t = L.Trainer(max_epochs=4, logger=CSVLogger(sys.argv[1], name="lightning_logs"), callbacks=[LearningRateMonitor("step")],
              enable_checkpointing=False, enable_progress_bar=False, enable_model_summary=False, accelerator="cpu", log_every_n_steps=10)
t.fit(M(), dl, dl)
