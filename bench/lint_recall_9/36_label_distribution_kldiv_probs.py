# Source: https://github.com/pytorch/pytorch/issues/5282
# Pitfall: the model's softmax probabilities are passed as the input of KLDivLoss, which expects
#   log-probabilities; the computed quantity is not the KL divergence and training gets wrong gradients.
# Reproduced in our own words, not the original code.
import torch
import torch.nn as nn
import torch.nn.functional as F


class AgeDistributionNet(nn.Module):
    """Predicts a distribution over age bins (label-distribution learning)."""

    def __init__(self, backbone, feat_dim=512, n_bins=101):
        super().__init__()
        self.backbone = backbone
        self.head = nn.Linear(feat_dim, n_bins)

    def forward(self, x):
        return self.head(self.backbone(x))


def gaussian_targets(ages, n_bins=101, sigma=2.0):
    bins = torch.arange(n_bins, device=ages.device, dtype=torch.float32)
    dist = torch.exp(-0.5 * ((bins.unsqueeze(0) - ages.unsqueeze(1).float()) / sigma) ** 2)
    return dist / dist.sum(dim=1, keepdim=True)


def train(model, loader, epochs=30, lr=1e-3, device="cuda"):
    model.to(device)
    criterion = nn.KLDivLoss(reduction="batchmean")
    optimizer = torch.optim.Adam(model.parameters(), lr=lr)
    for epoch in range(epochs):
        model.train()
        running = 0.0
        for faces, ages in loader:
            faces, ages = faces.to(device), ages.to(device)
            probs = F.softmax(model(faces), dim=1)
            loss = criterion(probs, gaussian_targets(ages))  # expect: kl-div-input-not-log
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            running += loss.item()
        print(f"epoch {epoch}: {running / len(loader):.4f}")
