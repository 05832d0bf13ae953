"""Differentially private CIFAR training: BatchNorm layers must be swapped out first."""
import torch
import torch.nn as nn
import torchvision
from opacus import PrivacyEngine
from opacus.validators import ModuleValidator


def build(train_loader, device, lr=1e-3, epochs=5):
    model = torchvision.models.resnet18(num_classes=10)
    optimizer = torch.optim.RMSprop(model.parameters(), lr=lr)
    model = ModuleValidator.fix(model)  # expect: optimizer-misses-params
    model = model.to(device)
    privacy_engine = PrivacyEngine()
    model, optimizer, train_loader = privacy_engine.make_private(
        module=model,
        optimizer=optimizer,
        data_loader=train_loader,
        noise_multiplier=1.1,
        max_grad_norm=1.0,
    )
    return model, optimizer, train_loader, privacy_engine


def train(model, optimizer, train_loader, device, epochs=5):
    criterion = nn.CrossEntropyLoss()
    for epoch in range(epochs):
        model.train()
        losses = []
        for images, target in train_loader:
            images, target = images.to(device), target.to(device)
            optimizer.zero_grad()
            output = model(images)
            loss = criterion(output, target)
            loss.backward()
            optimizer.step()
            losses.append(loss.item())
        print(f"epoch {epoch} loss {sum(losses) / max(len(losses), 1):.4f}")
