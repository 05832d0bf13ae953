"""Train a prior network u(s) that must pick its own latent z among the batch (contrastive NLL)."""
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch import optim


class Encoder(nn.Module):
    def __init__(self, ncond=10, nfeature=64, nz=32):
        super().__init__()
        self.conv = nn.Sequential(
            nn.Conv2d(3 * ncond, nfeature, 4, 2, 1), nn.LeakyReLU(0.2),
            nn.Conv2d(nfeature, nfeature, 4, 2, 1), nn.LeakyReLU(0.2),
            nn.AdaptiveAvgPool2d(4), nn.Flatten(),
        )
        self.fc = nn.Linear(nfeature * 16, nz)

    def forward(self, frames):
        bsize = frames.size(0)
        return self.fc(self.conv(frames.view(bsize, -1, frames.size(-2), frames.size(-1))))


class PriorTrainer:
    def __init__(self, z_encoder, u_network, u_sphere=True, lr=1e-3, device="cpu"):
        self.z_encoder = z_encoder.to(device).eval()
        self.u_network = u_network.to(device)
        self.optimizer = optim.Adam(self.u_network.parameters(), lr)
        self.u_sphere = u_sphere
        self.device = device

    def step(self, inputs, targets):
        bsize = inputs.size(0)
        with torch.no_grad():
            z = F.normalize(self.z_encoder(targets), dim=1)
        u = self.u_network(inputs)
        if self.u_sphere:
            u = F.normalize(u, dim=1)
        energies = torch.mm(u, z.t())
        log_p = F.log_softmax(energies, dim=1)
        eye = torch.eye(bsize, device=self.device)
        loss = F.nll_loss(log_p, eye)  # expect: one-hot-target
        self.optimizer.zero_grad()
        loss.backward()
        self.optimizer.step()
        return loss.item()


if __name__ == "__main__":
    trainer = PriorTrainer(Encoder(ncond=1), Encoder(ncond=10))
    for it in range(100):
        past = torch.randn(16, 10, 3, 64, 64)
        future = torch.randn(16, 1, 3, 64, 64)
        if it % 10 == 0:
            print(it, trainer.step(past, future))
