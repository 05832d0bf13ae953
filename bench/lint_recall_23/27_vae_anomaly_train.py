"""VAE for anomaly detection: fit on normal data, score by reconstruction probability."""
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset


class VAEAnomaly(nn.Module):
    def __init__(self, input_size, latent_size, device=None):
        super().__init__()
        self.device = device
        self.encoder = nn.Sequential(nn.Linear(input_size, 500), nn.LeakyReLU(), nn.Linear(500, 2 * latent_size))
        self.decoder = nn.Sequential(nn.Linear(latent_size, 500), nn.LeakyReLU(), nn.Linear(500, 2 * input_size))

    def forward(self, x):
        mu_z, log_var_z = self.encoder(x).chunk(2, dim=-1)
        z = mu_z + torch.randn_like(mu_z) * torch.exp(0.5 * log_var_z)
        mu_x, log_var_x = self.decoder(z).chunk(2, dim=-1)
        return mu_x, log_var_x, mu_z, log_var_z

    def loss(self, x):
        mu_x, log_var_x, mu_z, log_var_z = self(x)
        recon = 0.5 * (log_var_x + (x - mu_x) ** 2 / torch.exp(log_var_x)).sum(dim=-1)
        kl = -0.5 * (1 + log_var_z - mu_z ** 2 - torch.exp(log_var_z)).sum(dim=-1)
        return (recon + kl).mean()


def train(model, loader, epochs=30, lr=1e-3):
    optimizer = torch.optim.Adam(model.parameters(), lr=lr)
    for epoch in range(epochs):
        model.train()
        total = 0.0
        for (x,) in loader:
            if model.device:
                x.to(device=model.device)  # expect: tensor-op-result-discarded
            loss = model.loss(x)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            total += loss.item()
        print(f"epoch {epoch}: {total / len(loader):.3f}")


@torch.no_grad()
def anomaly_score(model, x, n_samples=16):
    model.eval()
    scores = torch.stack([model.loss(x.unsqueeze(0)) for _ in range(n_samples)])
    return scores.mean().item()


if __name__ == "__main__":
    dev = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    vae = VAEAnomaly(100, 32, device=dev).to(dev)
    data = DataLoader(TensorDataset(torch.randn(5000, 100)), batch_size=128, shuffle=True)
    train(vae, data)
