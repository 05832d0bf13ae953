# Source: https://github.com/pytorch/pytorch/issues/1258
# Pitfall: a port of deep-anpr gives CrossEntropyLoss a one-hot DoubleTensor target of shape
# (N, C) where class indices (N,) were meant.
# Reproduced in our own words, not the original code.
import torch
from torch import nn

criterion = nn.CrossEntropyLoss()


def step(model, optimizer, images, labels, n_classes=253):
    targets = torch.zeros(labels.size(0), n_classes, dtype=torch.float64)
    targets[torch.arange(labels.size(0)), labels] = 1
    optimizer.zero_grad()
    output = model(images)
    loss = criterion(output, targets)  # expect: one-hot-target
    loss.backward()
    optimizer.step()
