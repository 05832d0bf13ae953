# Source: https://github.com/londonaicentre/FLIP/pull/766
# Pitfall: the masked multi-label BCE divides the summed loss by mask.sum(); a batch in which every
# label is "unannotated" (-1) gives 0/0 = NaN, which backward() and step() spread into every weight.
# Reproduced in our own words, not the original code.
import torch
import torch.nn as nn
from torch.utils.data import DataLoader
from torchvision import models

FINDINGS = ["effusion", "cardiomegaly", "edema", "pneumothorax", "consolidation"]
UNLABELLED = -1.0

_elementwise_bce = nn.BCEWithLogitsLoss(reduction="none")


def masked_finding_loss(logits, targets):
    keep = (targets != UNLABELLED).to(logits.dtype)
    safe_targets = torch.where(keep.bool(), targets, torch.zeros_like(targets))
    per_entry = _elementwise_bce(logits, safe_targets) * keep
    return per_entry.sum() / keep.sum()  # expect: unguarded-zero


def build_net():
    net = models.densenet121(weights=None)
    net.classifier = nn.Linear(net.classifier.in_features, len(FINDINGS))
    return net


def local_round(net, train_set, device, epochs=1, lr=1e-4):
    loader = DataLoader(train_set, batch_size=8, shuffle=True, num_workers=2)
    opt = torch.optim.Adam(net.parameters(), lr=lr)
    net.to(device).train()
    seen = []
    for _ in range(epochs):
        for scans, labels in loader:
            scans, labels = scans.to(device), labels.to(device).float()
            opt.zero_grad()
            loss = masked_finding_loss(net(scans), labels)
            loss.backward()
            opt.step()
            seen.append(loss.item())
    return sum(seen) / max(len(seen), 1)


@torch.no_grad()
def local_eval(net, val_set, device):
    loader = DataLoader(val_set, batch_size=16)
    net.to(device).eval()
    hits, total = 0, 0
    for scans, labels in loader:
        scans, labels = scans.to(device), labels.to(device).float()
        preds = (torch.sigmoid(net(scans)) > 0.5).float()
        keep = labels != UNLABELLED
        hits += (preds[keep] == labels[keep]).sum().item()
        total += keep.sum().item()
    return hits / max(total, 1)
