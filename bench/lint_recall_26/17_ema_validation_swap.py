"""LightningModule that validates with EMA weights and swaps the live weights back afterwards."""
import copy

import torch
import lightning.pytorch as pl


class ExponentialMovingAverage:
    def __init__(self, model, decay=0.999):
        self.decay = decay
        self.params = {k: v.detach().clone() for k, v in model.state_dict().items()}

    @torch.no_grad()
    def update(self, model):
        for k, v in model.state_dict().items():
            if v.dtype.is_floating_point:
                self.params[k].mul_(self.decay).add_(v.detach(), alpha=1 - self.decay)
            else:
                self.params[k].copy_(v)

    def state_dict(self):
        return {"params": self.params, "decay": self.decay}


class StructureModuleWrapper(pl.LightningModule):
    def __init__(self, model, loss_fn, lr=1e-3):
        super().__init__()
        self.model = model
        self.loss_fn = loss_fn
        self.lr = lr
        self.ema = ExponentialMovingAverage(model)
        self.cached_weights = None

    def training_step(self, batch, batch_idx):
        outputs = self.model(batch)
        loss = self.loss_fn(outputs, batch)
        self.log("train/loss", loss)
        return loss

    def on_before_zero_grad(self, *args, **kwargs):
        self.ema.update(self.model)

    def validation_step(self, batch, batch_idx):
        if self.cached_weights is None:
            self.cached_weights = self.model.state_dict()  # expect: state-dict-not-copied
            self.model.load_state_dict(self.ema.state_dict()["params"])
        outputs = self.model(batch)
        self.log("val/loss", self.loss_fn(outputs, batch))

    def on_validation_epoch_end(self):
        self.model.load_state_dict(self.cached_weights)
        self.cached_weights = None

    def configure_optimizers(self):
        return torch.optim.Adam(self.model.parameters(), lr=self.lr, eps=1e-5)
