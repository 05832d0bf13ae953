# Source: https://github.com/simchowitzlabpublic/nano-world-model/pull/22
# Pitfall: clip_grad_norm_ is called inside training_step, i.e. after the previous optimizer step and before
#   this step's backward; it clips stale (already used) gradients, so the applied update is never capped.
# Reproduced in our own words, not the original code.
import pytorch_lightning as pl
import torch
import torch.nn as nn
import torch.nn.functional as F


class LatentDynamics(pl.LightningModule):
    def __init__(self, obs_dim=64, act_dim=8, hidden=256, lr=3e-4, gradient_clip_norm=1.0):
        super().__init__()
        self.save_hyperparameters()
        self.encoder = nn.Sequential(nn.Linear(obs_dim, hidden), nn.GELU(), nn.Linear(hidden, hidden))
        self.transition = nn.GRUCell(hidden + act_dim, hidden)
        self.decoder = nn.Linear(hidden, obs_dim)

    def forward(self, obs, actions):
        h = self.encoder(obs[:, 0])
        preds = []
        for t in range(actions.size(1)):
            h = self.transition(torch.cat([h, actions[:, t]], dim=-1), h)
            preds.append(self.decoder(h))
        return torch.stack(preds, dim=1)

    def training_step(self, batch, batch_idx):
        obs, actions = batch
        pred = self(obs, actions)
        loss = F.mse_loss(pred, obs[:, 1:])
        grad_norm = torch.nn.utils.clip_grad_norm_(self.parameters(), self.hparams.gradient_clip_norm)  # expect: clip-after-step
        self.log("train/loss", loss)
        self.log("train/gradient_norm", grad_norm)
        return loss

    def validation_step(self, batch, batch_idx):
        obs, actions = batch
        self.log("val/loss", F.mse_loss(self(obs, actions), obs[:, 1:]))

    def configure_optimizers(self):
        return torch.optim.AdamW(self.parameters(), lr=self.hparams.lr)
