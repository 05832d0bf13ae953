"""Linear probe on the latent means of a trained VAE (disentanglement metric)."""
import numpy as np
import torch
import torch.nn as nn


class LatentProbe:
    def __init__(self, encoder, n_factors, latent_dim, device="cpu", lr=1e-2, epochs=50):
        self.encoder = encoder.to(device)
        self.device = device
        self.classifier = nn.Linear(latent_dim, n_factors).to(device)
        self.optimizer = torch.optim.Adam(self.classifier.parameters(), lr=lr)
        self.epochs = epochs

    @torch.no_grad()
    def _encode(self, images):
        self.encoder.eval()
        mean, _ = self.encoder(images)
        return mean

    def _make_split(self, images, factors, n_pairs):
        idx_a = np.random.randint(0, len(images), n_pairs)
        idx_b = np.random.randint(0, len(images), n_pairs)
        fixed = np.random.randint(0, factors.shape[1], n_pairs)
        z_a = self._encode(images[idx_a].to(self.device))
        z_b = self._encode(images[idx_b].to(self.device))
        diff = (z_a - z_b).abs()
        return diff.cpu(), torch.from_numpy(fixed)

    def fit(self, images, factors, n_train=5000, n_test=1000):
        X_train, Y_train = self._make_split(images, factors, n_train)
        X_test, Y_test = self._make_split(images, factors, n_test)
        X_train.to(self.device)  # expect: tensor-op-result-discarded
        Y_train = Y_train.to(self.device)
        X_test = X_test.to(self.device)
        Y_test = Y_test.to(self.device)

        loss_f = nn.CrossEntropyLoss()
        for _ in range(self.epochs):
            self.optimizer.zero_grad()
            loss = loss_f(self.classifier(X_train), Y_train)
            loss.backward()
            self.optimizer.step()

        with torch.no_grad():
            acc = (self.classifier(X_test).argmax(dim=1) == Y_test).float().mean()
        return acc.item()


class Encoder(nn.Module):
    def __init__(self, latent_dim=10):
        super().__init__()
        self.body = nn.Sequential(nn.Flatten(), nn.Linear(64 * 64, 256), nn.ReLU())
        self.mu = nn.Linear(256, latent_dim)
        self.logvar = nn.Linear(256, latent_dim)

    def forward(self, x):
        h = self.body(x)
        return self.mu(h), self.logvar(h)


if __name__ == "__main__":
    dev = "cuda" if torch.cuda.is_available() else "cpu"
    imgs = torch.rand(2000, 1, 64, 64)
    facs = np.random.randint(0, 5, size=(2000, 5))
    probe = LatentProbe(Encoder(), n_factors=5, latent_dim=10, device=dev)
    print("probe accuracy", probe.fit(imgs, facs))
