# Source: https://github.com/Lightning-Universe/lightning-bolts/commit/6b7358c34c9bddad5b175880c39d2281f13421f1
# Pitfall: the online linear-probe evaluator ends in a Softmax layer and its output goes straight into
#   F.cross_entropy (which applies log_softmax itself), so the probe's loss and accuracy are distorted.
# Reproduced in our own words, not the original code.
import torch
from torch import nn
from torch.nn import functional as F
import lightning.pytorch as pl


class ProbeHead(nn.Module):
    def __init__(self, n_input, n_classes, p=0.1):
        super().__init__()
        self.block_forward = nn.Sequential(
            nn.Flatten(),
            nn.Dropout(p=p),
            nn.Linear(n_input, n_classes, bias=True),
            nn.Softmax(dim=-1),
        )

    def forward(self, x):
        return self.block_forward(x)


class OnlineProbe(pl.Callback):
    def __init__(self, z_dim, num_classes, lr=1e-4):
        self.z_dim = z_dim
        self.num_classes = num_classes
        self.lr = lr

    def on_fit_start(self, trainer, pl_module):
        pl_module.probe = ProbeHead(self.z_dim, self.num_classes).to(pl_module.device)
        self.optimizer = torch.optim.Adam(pl_module.probe.parameters(), lr=self.lr)

    def _features(self, pl_module, batch):
        (_, _, x_eval), y = batch
        with torch.no_grad():
            reps = pl_module(x_eval.to(pl_module.device)).flatten(start_dim=1)
        return reps.detach(), y.to(pl_module.device)

    def on_train_batch_end(self, trainer, pl_module, outputs, batch, batch_idx):
        reps, y = self._features(pl_module, batch)
        pl_module.probe.train()
        mlp_preds = pl_module.probe(reps)
        mlp_loss = F.cross_entropy(mlp_preds, y)  # expect: softmax-before-cross-entropy
        self.optimizer.zero_grad()
        mlp_loss.backward()
        self.optimizer.step()
        acc = (mlp_preds.argmax(-1) == y).float().mean()
        pl_module.log("online_train_acc", acc, on_step=True, on_epoch=False)
        pl_module.log("online_train_loss", mlp_loss.detach(), on_step=True, on_epoch=False)

    def on_validation_batch_end(self, trainer, pl_module, outputs, batch, batch_idx, dataloader_idx=0):
        reps, y = self._features(pl_module, batch)
        pl_module.probe.eval()
        with torch.no_grad():
            mlp_preds = pl_module.probe(reps)
            mlp_loss = F.cross_entropy(mlp_preds, y)  # expect: softmax-before-cross-entropy
        acc = (mlp_preds.argmax(-1) == y).float().mean()
        pl_module.log("online_val_acc", acc, on_step=False, on_epoch=True, sync_dist=True)
        pl_module.log("online_val_loss", mlp_loss, on_step=False, on_epoch=True, sync_dist=True)
