# Source: https://github.com/IGNF/FLAIR-1/issues/9
# Pitfall: segmentation masks arrive one-hot (N, C, H, W floats) and go straight into
# CrossEntropyLoss, which then reads them as class probabilities instead of indices.
# Reproduced in our own words, not the original code.
import torch
from torch import nn

criterion = nn.CrossEntropyLoss()


def training_step(model, batch, optimizer):
    images, targets = batch["img"], batch["msk"]  # targets: one-hot, (N, C, H, W)
    optimizer.zero_grad()
    logits = model(images)
    loss = criterion(logits, targets)  # expect: one-hot-target
    loss.backward()
    optimizer.step()
    return loss
