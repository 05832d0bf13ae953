# Source: https://github.com/fastai/fastai/issues/2133
# Pitfall: The optimizer is built only from the parameters that are trainable at creation time (the head); when the backbone is later unfrozen the optimizer is not rebuilt, so the newly unfrozen weights get gradients but are never updated.
# Reproduced in our own words, not the original code.
import torch
import torch.nn as nn
import torchvision


def build_model(n_classes):
    model = torchvision.models.resnet34(weights=None)
    model.fc = nn.Linear(model.fc.in_features, n_classes)
    for name, p in model.named_parameters():
        p.requires_grad = name.startswith("fc.")
    return model


def fine_tune(model, train_loader, epochs=10, unfreeze_at=3, lr=1e-3):
    optimizer = torch.optim.Adam(filter(lambda p: p.requires_grad, model.parameters()), lr=lr)
    criterion = nn.CrossEntropyLoss()
    for epoch in range(epochs):
        if epoch == unfreeze_at:
            for p in model.parameters():
                p.requires_grad = True  # expect: optimizer-misses-params
        model.train()
        for images, labels in train_loader:
            optimizer.zero_grad()
            loss = criterion(model(images), labels)
            loss.backward()
            optimizer.step()
        print(f"epoch {epoch} loss {loss.item():.4f}")
    return model
