"""Land-cover segmentation from low-resolution label priors with the QR (label super-resolution) loss."""
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset


class QRLoss(nn.Module):
    """Loss between the network's class probabilities and a per-pixel prior over classes."""

    def forward(self, probs, target):
        q = probs
        q_bar = q.mean(dim=(0, 2, 3))
        qbar_log_S = (q_bar * torch.log(q_bar)).sum()  # expect: unguarded-zero
        q_log_p = torch.einsum("bcxy,bcxy->bxy", q, torch.log(target)).mean()  # expect: unguarded-zero
        return qbar_log_S - q_log_p


class TinyUNet(nn.Module):
    def __init__(self, in_ch=4, classes=5, width=32):
        super().__init__()
        self.enc = nn.Sequential(nn.Conv2d(in_ch, width, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2))
        self.mid = nn.Sequential(nn.Conv2d(width, width, 3, padding=1), nn.ReLU())
        self.dec = nn.Sequential(nn.Upsample(scale_factor=2), nn.Conv2d(width, classes, 3, padding=1))

    def forward(self, x):
        return self.dec(self.mid(self.enc(x)))


def train(model, loader, epochs=10, device="cpu"):
    criterion = QRLoss()
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
    for epoch in range(epochs):
        model.train()
        epoch_loss = 0.0
        for image, prior in loader:
            image, prior = image.to(device), prior.to(device)
            probs = F.softmax(model(image), dim=1)
            loss = criterion(probs, prior)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            epoch_loss += loss.item()
        print(f"epoch {epoch}: {epoch_loss / len(loader):.4f}")


if __name__ == "__main__":
    x = torch.randn(64, 4, 64, 64)
    # priors come from coarse land-cover maps: classes absent from a tile get probability 0
    prior = F.one_hot(torch.randint(0, 5, (64, 64, 64)), 5).permute(0, 3, 1, 2).float()
    loader = DataLoader(TensorDataset(x, prior), batch_size=8, shuffle=True)
    train(TinyUNet(), loader, epochs=1)
