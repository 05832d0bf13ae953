# Source: https://github.com/meta-pytorch/opacus/issues/432
# Pitfall: the optimizer is built from model.parameters() and only afterwards ModuleValidator.fix(model)
#          swaps BatchNorm for new GroupNorm layers; the new layers' parameters are not in the optimizer.
# Reproduced in our own words, not the original code.
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset

from opacus import PrivacyEngine
from opacus.validators import ModuleValidator


def build_backbone(num_classes=10):
    return nn.Sequential(
        nn.Conv2d(3, 32, 3, padding=1), nn.BatchNorm2d(32), nn.ReLU(),
        nn.Conv2d(32, 64, 3, padding=1), nn.BatchNorm2d(64), nn.ReLU(),
        nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Linear(64, num_classes),
    )


def main(use_dp=True, epochs=2):
    images, labels = torch.randn(256, 3, 32, 32), torch.randint(0, 10, (256,))
    train_loader = DataLoader(TensorDataset(images, labels), batch_size=16, shuffle=True)
    model = build_backbone()
    optimizer = torch.optim.Adam(params=filter(lambda p: p.requires_grad, model.parameters()), lr=1e-3)
    criterion = nn.CrossEntropyLoss()
    if use_dp:
        model = ModuleValidator.fix(model)  # expect: optimizer-misses-params
        engine = PrivacyEngine()
        model, optimizer, train_loader = engine.make_private(
            module=model, optimizer=optimizer, data_loader=train_loader,
            noise_multiplier=1.1, max_grad_norm=1.0,
        )
    for epoch in range(epochs):
        model.train()
        running = 0.0
        for x, y in train_loader:
            optimizer.zero_grad()
            loss = criterion(model(x), y)
            loss.backward()
            optimizer.step()
            running += loss.item()
        print(f"epoch {epoch}: {running / len(train_loader):.4f}")


if __name__ == "__main__":
    main()
