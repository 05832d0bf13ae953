"""Continuous recurrent units on irregular time series: one training epoch."""
import torch
import torch.nn as nn


def gaussian_nll(mean, var, target, mask):
    var = var.clamp(min=1e-6)
    nll = 0.5 * (torch.log(2 * torch.pi * var) + (target - mean) ** 2 / var)
    return (nll * mask).sum() / mask.sum().clamp(min=1.0)


class CRUTrainer:
    def __init__(self, model: nn.Module, lr=1e-3, device="cuda"):
        self.model = model.to(device)
        self.device = device
        self.optimizer = torch.optim.Adam(self.model.parameters(), lr=lr)

    def train_epoch(self, loader):
        self.model.train()
        epoch_ll = 0
        n_batches = 0
        for obs, truth, obs_valid, obs_times, mask in loader:
            obs, truth = obs.to(self.device), truth.to(self.device)
            obs_valid, obs_times = obs_valid.to(self.device), obs_times.to(self.device)
            mask = mask.to(self.device)
            self.optimizer.zero_grad()
            mean, var = self.model(obs, obs_times, obs_valid)
            loss = gaussian_nll(mean, var, truth, mask)
            loss.backward()
            nn.utils.clip_grad_norm_(self.model.parameters(), 1.0)
            self.optimizer.step()
            epoch_ll += loss  # expect: running-loss-keeps-graph
            n_batches += 1
        return epoch_ll / max(n_batches, 1)
