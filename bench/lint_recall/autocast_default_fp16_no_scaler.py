# Source: https://github.com/engichang1467/Open-Rig3R/issues/35
# Pitfall: autocast without a dtype is float16 on CUDA, and the script has no GradScaler:
# small gradients silently underflow to zero.
# Reproduced in our own words, not the original code.
import torch
from torch.amp import autocast


def train(model, loader, optimizer, criterion, device):
    model.train()
    for images, metadata, target in loader:
        images, target = images.to(device), target.to(device)
        optimizer.zero_grad()
        with autocast(device_type=str(device)):  # expect: unscaled-fp16
            outputs = model(images, metadata)
            loss = criterion(outputs, target)
        loss.backward()
        optimizer.step()
