"""Stochastic video prediction with a learned prior: KL between posterior and prior Gaussians."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class GaussianHead(nn.Module):
    def __init__(self, in_dim, nz):
        super().__init__()
        self.fc = nn.Sequential(nn.Linear(in_dim, 256), nn.ReLU(), nn.Linear(256, 2 * nz))

    def forward(self, h):
        mu, logvar = self.fc(h).chunk(2, dim=-1)
        z = mu + torch.randn_like(mu) * logvar.mul(0.5).exp()
        return z, mu, logvar


class FwdVAEWithPrior(nn.Module):
    def __init__(self, hdim=512, nz=32):
        super().__init__()
        self.encoder = nn.Sequential(nn.Flatten(), nn.Linear(3 * 4 * 64 * 64, hdim), nn.ReLU())
        self.y_encoder = nn.Sequential(nn.Flatten(), nn.Linear(3 * 64 * 64, hdim), nn.ReLU())
        self.z_network = GaussianHead(hdim, nz)
        self.q_network = GaussianHead(hdim, nz)
        self.decoder = nn.Sequential(nn.Linear(hdim + nz, 3 * 64 * 64), nn.Sigmoid())

    def forward(self, inputs, targets):
        bsize, npred = targets.size(0), targets.size(1)
        h_x = self.encoder(inputs)
        preds, kld = [], 0.0
        for t in range(npred):
            h_y = self.y_encoder(targets[:, t])
            z1, mu1, logvar1 = self.z_network(h_x + h_y)
            _, mu2, logvar2 = self.q_network(h_x)
            sigma1 = logvar1.mul(0.5).exp()
            sigma2 = logvar2.mul(0.5).exp()
            kld_t = torch.log(sigma2 / sigma1) + (torch.exp(logvar1) + (mu1 - mu2) ** 2) / (2 * torch.exp(logvar2)) - 0.5  # expect: unguarded-zero
            kld = kld + kld_t.sum() / bsize
            preds.append(self.decoder(torch.cat([h_x, z1], dim=1)).view(bsize, 3, 64, 64))
        return torch.stack(preds, 1), kld


def train(model, batches, beta=1e-6, lr=1e-4):
    opt = torch.optim.Adam(model.parameters(), lr=lr)
    model.train()
    for inputs, targets in batches:
        pred, kld = model(inputs, targets)
        loss = F.mse_loss(pred, targets) + beta * kld
        opt.zero_grad()
        loss.backward()
        torch.nn.utils.clip_grad_norm_(model.parameters(), 10.0)
        opt.step()
    return loss.item()


if __name__ == "__main__":
    data = [(torch.rand(4, 4, 3, 64, 64), torch.rand(4, 5, 3, 64, 64)) for _ in range(3)]
    print(train(FwdVAEWithPrior(), data))
