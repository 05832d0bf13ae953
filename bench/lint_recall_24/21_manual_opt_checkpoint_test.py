"""Check that the 'best' checkpoint of a manual-optimization module holds pre-step weights."""
import torch
from torch import nn
import lightning.pytorch as pl
from lightning.pytorch.callbacks import ModelCheckpoint
from torch.utils.data import DataLoader, TensorDataset


class ManualOptModule(pl.LightningModule):
    def __init__(self):
        super().__init__()
        self.automatic_optimization = False
        self.layer = nn.Linear(4, 1)
        self.saved = {}

    def training_step(self, batch, batch_idx):
        x, y = batch
        opt = self.optimizers()
        loss = nn.functional.mse_loss(self.layer(x).squeeze(-1), y)
        self.log("train_loss", loss)
        self.saved[self.global_step] = {k: v.detach().clone() for k, v in self.state_dict().items()}
        opt.zero_grad()
        self.manual_backward(loss)
        opt.step()
        return loss

    def configure_optimizers(self):
        return torch.optim.SGD(self.parameters(), lr=0.1)


def test_best_checkpoint_matches_pre_step(tmp_path):
    x = torch.randn(64, 4)
    data = DataLoader(TensorDataset(x, x.sum(dim=1)), batch_size=8, shuffle=True)
    ckpt = ModelCheckpoint(dirpath=tmp_path, monitor="train_loss", save_top_k=1, every_n_train_steps=1)
    model = ManualOptModule()
    trainer = pl.Trainer(max_steps=8, callbacks=[ckpt], logger=False, enable_progress_bar=False)
    trainer.fit(model, data)

    best_ckpt = torch.load(ckpt.best_model_path)["state_dict"]  # expect: torch-load-unsafe
    assert best_ckpt.keys() == model.state_dict().keys()
