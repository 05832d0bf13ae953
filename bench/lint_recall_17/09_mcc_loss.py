"""Soft Matthews-correlation loss for imbalanced binary tasks, used as a training objective."""
import torch
from torch import nn


class MCCLoss(nn.Module):
    def forward(self, preds, targets, mask, weights):
        probs = preds.sigmoid()
        w = weights * mask
        TP = (targets * probs * w).sum(0)
        FP = ((1 - targets) * probs * w).sum(0)
        TN = ((1 - targets) * (1 - probs) * w).sum(0)
        FN = (targets * (1 - probs) * w).sum(0)
        MCC = (TP * TN - FP * FN) / ((TP + FP) * (TP + FN) * (TN + FP) * (TN + FN)).sqrt()  # expect: unguarded-zero
        return 1 - MCC.mean()


def train_epoch(model, loader, optimizer, criterion, device):
    model.train()
    running = 0.0
    for batch in loader:
        x = batch["x"].to(device)
        y = batch["y"].to(device)
        mask = batch["mask"].to(device)
        weights = batch.get("weights", torch.ones_like(y)).to(device)
        optimizer.zero_grad()
        loss = criterion(model(x), y, mask, weights)
        loss.backward()
        optimizer.step()
        running += loss.item()
    return running / max(len(loader), 1)
