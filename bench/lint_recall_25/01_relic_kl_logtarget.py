"""Self-supervised pretraining with a ReLIC-style invariance term (two augmented views)."""
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset


class Encoder(nn.Module):
    def __init__(self, in_dim=128, hidden=256, out_dim=64):
        super().__init__()
        self.backbone = nn.Sequential(nn.Linear(in_dim, hidden), nn.ReLU(), nn.Linear(hidden, hidden))
        self.head = nn.Sequential(nn.ReLU(), nn.Linear(hidden, out_dim))

    def forward(self, x):
        return F.normalize(self.head(self.backbone(x)), dim=-1)


def augment(x):
    noise = 0.1 * torch.randn_like(x)
    mask = (torch.rand_like(x) > 0.1).float()
    return (x + noise) * mask


class RelicLoss(nn.Module):
    def __init__(self, tau=0.2, alpha=0.5):
        super().__init__()
        self.tau = tau
        self.alpha = alpha

    def forward(self, z_i, z_j):
        logits_ij = z_i @ z_j.t() / self.tau
        logits_ji = z_j @ z_i.t() / self.tau
        targets = torch.arange(z_i.size(0), device=z_i.device)
        contrastive = 0.5 * (F.cross_entropy(logits_ij, targets) + F.cross_entropy(logits_ji, targets))
        invariance = F.kl_div(F.softmax(logits_ij, dim=-1), F.log_softmax(logits_ji, dim=-1), log_target=True, reduction="batchmean")  # expect: kl-div-input-not-log
        return contrastive + self.alpha * invariance


def pretrain(epochs=5, device="cpu"):
    data = torch.randn(2048, 128)
    loader = DataLoader(TensorDataset(data), batch_size=128, shuffle=True, drop_last=True)
    model = Encoder().to(device)
    criterion = RelicLoss()
    opt = torch.optim.AdamW(model.parameters(), lr=3e-4, weight_decay=1e-4)
    for epoch in range(epochs):
        model.train()
        running = 0.0
        for (x,) in loader:
            x = x.to(device)
            z_i, z_j = model(augment(x)), model(augment(x))
            loss = criterion(z_i, z_j)
            opt.zero_grad()
            loss.backward()
            opt.step()
            running += loss.item()
        print(f"epoch {epoch}: loss {running / len(loader):.4f}")
    return model


if __name__ == "__main__":
    pretrain()
