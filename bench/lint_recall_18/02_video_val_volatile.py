"""Training/validation epochs for an action-recognition network (pre-0.4 style helpers)."""
import time

import torch
import torch.nn as nn
from torch.autograd import Variable


class AverageMeter:
    def __init__(self):
        self.sum = 0.0
        self.count = 0

    def update(self, value, n=1):
        self.sum += value * n
        self.count += n

    @property
    def avg(self):
        return self.sum / max(self.count, 1)


def calculate_accuracy(outputs, targets):
    with torch.no_grad():
        pred = outputs.argmax(dim=1)
        return (pred == targets).float().mean().item()


def train_epoch(epoch, loader, model, criterion, optimizer, device):
    model.train()
    losses, accs = AverageMeter(), AverageMeter()
    for inputs, targets in loader:
        inputs, targets = inputs.to(device), targets.to(device)
        outputs = model(inputs)
        loss = criterion(outputs, targets)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        losses.update(loss.item(), inputs.size(0))
        accs.update(calculate_accuracy(outputs, targets), inputs.size(0))
    print(f"train epoch {epoch}: loss {losses.avg:.4f} acc {accs.avg:.3f}")


def val_epoch(epoch, loader, model, criterion, device, logger=None):
    model.eval()
    losses, accs = AverageMeter(), AverageMeter()
    start = time.time()
    for inputs, targets in loader:
        inputs = Variable(inputs.to(device), volatile=True)  # expect: volatile-variable
        targets = targets.to(device)
        outputs = model(inputs)
        loss = criterion(outputs, targets)
        losses.update(loss.item(), inputs.size(0))
        accs.update(calculate_accuracy(outputs, targets), inputs.size(0))
    if logger is not None:
        logger.append({"epoch": epoch, "loss": losses.avg, "acc": accs.avg, "time": time.time() - start})
    return losses.avg


def fit(model, train_loader, val_loader, epochs=30, lr=0.1):
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    model = model.to(device)
    criterion = nn.CrossEntropyLoss()
    optimizer = torch.optim.SGD(model.parameters(), lr=lr, momentum=0.9, weight_decay=1e-3)
    scheduler = torch.optim.lr_scheduler.ReduceLROnPlateau(optimizer, patience=5)
    history = []
    for epoch in range(1, epochs + 1):
        train_epoch(epoch, train_loader, model, criterion, optimizer, device)
        val_loss = val_epoch(epoch, val_loader, model, criterion, device, history)
        scheduler.step(val_loss)
    return history
