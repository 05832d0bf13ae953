"""Segmentation training script (robosat-like): train() and validate() per epoch."""
import torch
import torch.nn as nn
from torch.utils.data import DataLoader


class Metrics:
    def __init__(self):
        self.tn = self.fn = self.fp = self.tp = 0

    def add(self, actual, predicted):
        self.tp += int(((predicted == 1) & (actual == 1)).sum())
        self.fp += int(((predicted == 1) & (actual == 0)).sum())
        self.fn += int(((predicted == 0) & (actual == 1)).sum())
        self.tn += int(((predicted == 0) & (actual == 0)).sum())

    def iou(self):
        return self.tp / max(self.tp + self.fp + self.fn, 1)


def train(loader, num_classes, device, net, optimizer, criterion):
    net.train()
    running_loss = 0.0
    metrics = Metrics()
    for images, masks in loader:
        images = images.to(device)
        masks = masks.to(device)
        optimizer.zero_grad()
        outputs = net(images)
        loss = criterion(outputs, masks)
        loss.backward()
        optimizer.step()
        running_loss += loss.item()
        for mask, output in zip(masks, outputs):
            metrics.add(mask, output.argmax(dim=0))
    return running_loss / len(loader), metrics.iou()


def validate(loader, num_classes, device, net, criterion):
    net.eval()
    running_loss = 0.0
    metrics = Metrics()
    for images, masks in loader:
        images = images.to(device)
        masks = masks.to(device)
        outputs = net(images)  # expect: validation-in-train-mode
        loss = criterion(outputs, masks)
        running_loss += loss.item()
        for mask, output in zip(masks, outputs):
            metrics.add(mask, output.argmax(dim=0))
    return running_loss / len(loader), metrics.iou()


def main(net, train_set, val_set, epochs=50, device="cuda"):
    net = net.to(device)
    optimizer = torch.optim.Adam(net.parameters(), lr=1e-4, weight_decay=1e-4)
    criterion = nn.CrossEntropyLoss(weight=torch.tensor([0.2, 0.8], device=device))
    train_loader = DataLoader(train_set, batch_size=8, shuffle=True, num_workers=4, drop_last=True)
    val_loader = DataLoader(val_set, batch_size=8, num_workers=4)
    for epoch in range(epochs):
        tl, tiou = train(train_loader, 2, device, net, optimizer, criterion)
        vl, viou = validate(val_loader, 2, device, net, criterion)
        print(f"{epoch}: train {tl:.3f}/{tiou:.3f} val {vl:.3f}/{viou:.3f}")
        torch.save({"epoch": epoch, "state_dict": net.state_dict()}, f"checkpoint-{epoch:05d}.pth")
