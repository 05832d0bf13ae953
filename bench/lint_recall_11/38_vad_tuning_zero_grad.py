"""Fine-tuning a small voice-activity detector on labelled audio chunks."""
import torch
import torch.nn as nn
from torch.utils.data import DataLoader


class AverageMeter:
    def __init__(self):
        self.sum, self.count = 0.0, 0

    def update(self, val, n=1):
        self.sum += val * n
        self.count += n

    @property
    def avg(self):
        return self.sum / max(self.count, 1)


def train(config, loader: DataLoader, model, optimizer, criterion: nn.BCELoss, device):
    model.train()
    loss_avg = AverageMeter()
    for i, (x, targets, masks) in enumerate(loader):
        x, targets, masks = x.to(device), targets.to(device), masks.to(device)
        state = torch.zeros(2, x.shape[0], 128, device=device)
        probs, _ = model(x, state)
        loss = criterion(probs, targets)
        loss = (loss * masks).mean()
        loss.backward()  # expect: gradients-never-cleared
        optimizer.step()
        loss_avg.update(loss.item(), masks.numel())
    return loss_avg.avg


def validate(config, loader, model, criterion, device):
    model.eval()
    loss_avg = AverageMeter()
    with torch.no_grad():
        for x, targets, masks in loader:
            x, targets, masks = x.to(device), targets.to(device), masks.to(device)
            state = torch.zeros(2, x.shape[0], 128, device=device)
            probs, _ = model(x, state)
            loss = (criterion(probs, targets) * masks).mean()
            loss_avg.update(loss.item(), masks.numel())
    return loss_avg.avg
