# Source: https://github.com/Michedev/VAE_anomaly_detection/issues/10
# Pitfall: the training step calls x.to(device=self.device) as a bare statement; Tensor.to is not in-place,
#          so the batch stays on the CPU while the model sits on the GPU.
# Reproduced in our own words, not the original code.
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset


class TabularVAE(nn.Module):
    def __init__(self, d_in=20, d_lat=4):
        super().__init__()
        self.enc = nn.Sequential(nn.Linear(d_in, 64), nn.ReLU(), nn.Linear(64, 2 * d_lat))
        self.dec = nn.Sequential(nn.Linear(d_lat, 64), nn.ReLU(), nn.Linear(64, d_in))

    def forward(self, x):
        mu, logvar = self.enc(x).chunk(2, dim=-1)
        z = mu + torch.randn_like(mu) * torch.exp(0.5 * logvar)
        recon = self.dec(z)
        kl = -0.5 * torch.mean(torch.sum(1 + logvar - mu.pow(2) - logvar.exp(), dim=-1))
        return recon, kl


class VAETrainer:
    def __init__(self, device=None):
        self.device = device
        self.model = TabularVAE()
        if device:
            self.model = self.model.to(device)
        self.opt = torch.optim.Adam(self.model.parameters(), lr=1e-3)

    def training_step(self, x):
        if self.device:
            x.to(device=self.device)  # expect: tensor-op-result-discarded
        self.opt.zero_grad()
        recon, kl = self.model(x)
        loss = nn.functional.mse_loss(recon, x) + kl
        loss.backward()
        self.opt.step()
        return loss.item()


if __name__ == "__main__":
    data = DataLoader(TensorDataset(torch.randn(512, 20)), batch_size=64, shuffle=True)
    trainer = VAETrainer("cuda" if torch.cuda.is_available() else None)
    for epoch in range(3):
        for (batch,) in data:
            last = trainer.training_step(batch)
        print(epoch, last)
