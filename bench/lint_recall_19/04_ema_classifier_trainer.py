"""ResNet classifier trainer that also validates an EMA copy of the weights."""
import copy

import torch
import torch.nn as nn
import torchvision


class ModelEma:
    def __init__(self, model: nn.Module, decay: float = 0.9998):
        self.module = copy.deepcopy(model)
        self.decay = decay
        for p in self.module.parameters():
            p.requires_grad_(False)

    @torch.no_grad()
    def update(self, model: nn.Module):
        for ema_v, v in zip(self.module.state_dict().values(), model.state_dict().values()):
            if ema_v.dtype.is_floating_point:
                ema_v.mul_(self.decay).add_(v.detach(), alpha=1 - self.decay)
            else:
                ema_v.copy_(v)


class Trainer:
    def __init__(self, model, ema, optimizer, criterion, device):
        self.model = model
        self.ema = ema
        self.optimizer = optimizer
        self.criterion = criterion
        self.device = device

    def train_mode(self):
        self.model.train()
        if self.ema is not None:
            self.ema.module.train()

    def eval_mode(self):
        self.model.eval()
        if self.ema is not None:
            self.model.eval()  # expect: validation-in-train-mode

    def train_epoch(self, loader):
        self.train_mode()
        for images, targets in loader:
            images, targets = images.to(self.device), targets.to(self.device)
            self.optimizer.zero_grad(set_to_none=True)
            loss = self.criterion(self.model(images), targets)
            loss.backward()
            self.optimizer.step()
            if self.ema is not None:
                self.ema.update(self.model)

    @torch.no_grad()
    def validate(self, loader, use_ema=False):
        self.eval_mode()
        net = self.ema.module if use_ema else self.model
        correct = total = 0
        for images, targets in loader:
            images, targets = images.to(self.device), targets.to(self.device)
            preds = net(images).argmax(dim=1)
            correct += (preds == targets).sum().item()
            total += targets.numel()
        return correct / max(total, 1)


def run(train_loader, val_loader, epochs=90):
    device = torch.device("cuda")
    model = torchvision.models.resnet50(num_classes=1000).to(device)
    ema = ModelEma(model)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.256, momentum=0.875, weight_decay=3e-5)
    trainer = Trainer(model, ema, optimizer, nn.CrossEntropyLoss(label_smoothing=0.1), device)
    for epoch in range(epochs):
        trainer.train_epoch(train_loader)
        top1 = trainer.validate(val_loader)
        top1_ema = trainer.validate(val_loader, use_ema=True)
        print(f"epoch {epoch}: top1 {top1:.4f} ema {top1_ema:.4f}")
