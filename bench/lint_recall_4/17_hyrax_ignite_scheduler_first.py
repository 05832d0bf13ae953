# Source: https://github.com/lincc-frameworks/hyrax/issues/983
# Pitfall: the ignite-style train step advances the model's LR scheduler before stepping its
#   optimizer, triggering the "lr_scheduler.step() before optimizer.step()" warning and a skipped LR.
# Reproduced in our own words, not the original code.
import torch
import torch.nn as nn


class Autoencoder(nn.Module):
    def __init__(self, in_dim=256, latent=16):
        super().__init__()
        self.encoder = nn.Sequential(nn.Linear(in_dim, 64), nn.ReLU(), nn.Linear(64, latent))
        self.decoder = nn.Sequential(nn.Linear(latent, 64), nn.ReLU(), nn.Linear(64, in_dim))
        self.criterion = nn.MSELoss()
        self.optimizer = torch.optim.Adam(self.parameters(), lr=1e-3)
        self.scheduler = torch.optim.lr_scheduler.ExponentialLR(self.optimizer, gamma=0.999)

    def forward(self, x):
        return self.decoder(self.encoder(x))

    def train_step(self, batch):
        self.optimizer.zero_grad()
        recon = self(batch)
        loss = self.criterion(recon, batch)
        loss.backward()
        self.scheduler.step()  # expect: scheduler-before-optimizer
        self.optimizer.step()
        return {"loss": loss.item()}


def create_trainer_step(model, device):
    def _step(engine, batch):
        model.train()
        batch = batch.to(device)
        return model.train_step(batch)
    return _step


def run(model, loader, epochs, device="cpu"):
    model.to(device)
    step = create_trainer_step(model, device)
    for epoch in range(epochs):
        for i, batch in enumerate(loader):
            out = step(None, batch)
        print(f"epoch {epoch}: {out['loss']:.5f}")
