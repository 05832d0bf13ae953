"""Supervised contrastive pre-training of a ResNet-style encoder (two crops per image)."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class SupConLoss(nn.Module):
    def __init__(self, temperature=0.07, base_temperature=0.07):
        super().__init__()
        self.temperature = temperature
        self.base_temperature = base_temperature

    def forward(self, features, labels):
        device = features.device
        batch_size, n_views = features.shape[:2]
        labels = labels.contiguous().view(-1, 1)
        mask = torch.eq(labels, labels.T).float().to(device)

        contrast = torch.cat(torch.unbind(features, dim=1), dim=0)
        anchor_dot = torch.matmul(contrast, contrast.T) / self.temperature
        logits_max, _ = torch.max(anchor_dot, dim=1, keepdim=True)
        logits = anchor_dot - logits_max.detach()

        mask = mask.repeat(n_views, n_views)
        self_mask = torch.ones_like(mask).scatter_(
            1, torch.arange(batch_size * n_views, device=device).view(-1, 1), 0)
        mask = mask * self_mask

        exp_logits = torch.exp(logits) * self_mask
        log_prob = logits - torch.log(exp_logits.sum(1, keepdim=True))  # expect: unguarded-zero

        pos_count = mask.sum(1).clamp(min=1.0)
        mean_log_prob_pos = (mask * log_prob).sum(1) / pos_count
        loss = -(self.temperature / self.base_temperature) * mean_log_prob_pos
        return loss.view(n_views, batch_size).mean()


class Encoder(nn.Module):
    def __init__(self, feat_dim=128):
        super().__init__()
        self.backbone = nn.Sequential(
            nn.Conv2d(3, 64, 3, padding=1), nn.BatchNorm2d(64), nn.ReLU(),
            nn.Conv2d(64, 128, 3, stride=2, padding=1), nn.BatchNorm2d(128), nn.ReLU(),
            nn.AdaptiveAvgPool2d(1), nn.Flatten(),
        )
        self.head = nn.Sequential(nn.Linear(128, 128), nn.ReLU(), nn.Linear(128, feat_dim))

    def forward(self, x):
        return F.normalize(self.head(self.backbone(x)), dim=1)


def train_one_epoch(model, loader, criterion, optimizer, device):
    model.train()
    running = 0.0
    for (view1, view2), labels in loader:
        images = torch.cat([view1, view2], dim=0).to(device)
        labels = labels.to(device)
        bsz = labels.shape[0]
        feats = model(images)
        f1, f2 = torch.split(feats, [bsz, bsz], dim=0)
        loss = criterion(torch.stack([f1, f2], dim=1), labels)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        running += loss.item()
    return running / len(loader)


if __name__ == "__main__":
    device = "cuda" if torch.cuda.is_available() else "cpu"
    model = Encoder().to(device)
    opt = torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9, weight_decay=1e-4)
    fake = [((torch.randn(32, 3, 32, 32), torch.randn(32, 3, 32, 32)), torch.randint(0, 10, (32,)))]
    print(train_one_epoch(model, fake, SupConLoss(), opt, device))
