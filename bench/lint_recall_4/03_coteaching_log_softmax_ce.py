# Source: https://github.com/bhanML/Co-teaching/issues/4
# Pitfall: the two peer networks already return log_softmax outputs and the co-teaching loss
#   passes them to F.cross_entropy, applying log_softmax a second time (fixed in a later commit).
# Reproduced in our own words, not the original code.
import torch
import torch.nn as nn
import torch.nn.functional as F


class PeerCNN(nn.Module):
    def __init__(self, n_classes=10):
        super().__init__()
        self.features = nn.Sequential(
            nn.Conv2d(3, 64, 3, padding=1), nn.BatchNorm2d(64), nn.ReLU(),
            nn.MaxPool2d(2),
            nn.Conv2d(64, 128, 3, padding=1), nn.BatchNorm2d(128), nn.ReLU(),
            nn.AdaptiveAvgPool2d(1),
        )
        self.fc = nn.Linear(128, n_classes)

    def forward(self, x):
        return F.log_softmax(self.fc(self.features(x).flatten(1)), dim=1)


def small_loss_exchange(out_a, out_b, targets, keep_ratio):
    loss_a = F.cross_entropy(out_a, targets, reduction="none")  # expect: softmax-before-cross-entropy
    loss_b = F.cross_entropy(out_b, targets, reduction="none")
    n_keep = max(1, int(keep_ratio * targets.numel()))
    idx_a = torch.argsort(loss_a.detach())[:n_keep]
    idx_b = torch.argsort(loss_b.detach())[:n_keep]
    # each network learns from the samples its peer considers clean
    update_a = F.nll_loss(out_a[idx_b], targets[idx_b])
    update_b = F.nll_loss(out_b[idx_a], targets[idx_a])
    return update_a, update_b


def train_epoch(net_a, net_b, opt_a, opt_b, loader, keep_ratio, device):
    net_a.train()
    net_b.train()
    for images, labels in loader:
        images, labels = images.to(device), labels.to(device)
        out_a = net_a(images)
        out_b = net_b(images)
        loss_a, loss_b = small_loss_exchange(out_a, out_b, labels, keep_ratio)
        opt_a.zero_grad()
        loss_a.backward()
        opt_a.step()
        opt_b.zero_grad()
        loss_b.backward()
        opt_b.step()
