"""World-model / actor update with AMP and per-network gradient clipping."""
import torch
import torch.nn as nn
from torch.cuda.amp import GradScaler, autocast


class Config:
    model_grad_clip = 100.0
    actor_grad_clip = 100.0
    lr = 3e-4


class WorldModel(nn.Module):
    def __init__(self, obs_dim, latent_dim, cfg):
        super().__init__()
        self.cfg = cfg
        self.encoder = nn.Sequential(nn.Linear(obs_dim, 256), nn.ELU(), nn.Linear(256, latent_dim))
        self.decoder = nn.Sequential(nn.Linear(latent_dim, 256), nn.ELU(), nn.Linear(256, obs_dim))
        self.model_optimizer = torch.optim.Adam(self.parameters(), lr=cfg.lr)
        self.optim_scaler = GradScaler()

    def train_step(self, obs):
        self.model_optimizer.zero_grad()
        with autocast():
            recon = self.decoder(self.encoder(obs))
            wm_loss = (recon.float() - obs).pow(2).mean()
        self.optim_scaler.scale(wm_loss).backward()
        if self.cfg.model_grad_clip:
            torch.nn.utils.clip_grad_norm_(self.parameters(), self.cfg.model_grad_clip)  # expect: clip-before-unscale
        self.optim_scaler.step(self.model_optimizer)
        self.optim_scaler.update()
        return wm_loss.item()


class Actor(nn.Module):
    def __init__(self, latent_dim, n_actions, cfg):
        super().__init__()
        self.cfg = cfg
        self.net = nn.Sequential(nn.Linear(latent_dim, 128), nn.ELU(), nn.Linear(128, n_actions))
        self.actor_optimizer = torch.optim.Adam(self.parameters(), lr=cfg.lr)
        self.actor_optim_scaler = GradScaler()

    def train_step(self, latents, advantages, actions):
        self.actor_optimizer.zero_grad()
        with autocast():
            logits = self.net(latents.detach())
            logp = torch.log_softmax(logits.float(), dim=-1).gather(1, actions[:, None]).squeeze(1)
            actor_loss = -(logp * advantages).mean()
        self.actor_optim_scaler.scale(actor_loss).backward()
        if self.cfg.actor_grad_clip:
            torch.nn.utils.clip_grad_norm_(self.net.parameters(), self.cfg.actor_grad_clip)  # expect: clip-before-unscale
        self.actor_optim_scaler.step(self.actor_optimizer)
        self.actor_optim_scaler.update()
        return actor_loss.item()
