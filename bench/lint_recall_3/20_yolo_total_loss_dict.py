# Source: https://github.com/MultimediaTechLab/YOLO/pull/83
# Pitfall: The epoch summary keeps a dict of per-component loss tensors on the device and adds each
# step's loss tensor into it, holding onto the autograd history and leaking memory every batch.
# Reproduced in our own words, not the original code.
from collections import defaultdict

import torch


def train_one_epoch(model, loss_fn, loader, optimizer, device):
    model.train()
    totals = defaultdict(lambda: torch.tensor(0.0, device=device))
    n_images = 0
    for images, targets in loader:
        images = images.to(device)
        optimizer.zero_grad()
        preds = model(images)
        loss, parts = loss_fn(preds, targets)
        loss.backward()
        optimizer.step()
        bs = images.size(0)
        n_images += bs
        for name, value in parts.items():
            totals[name] += value * bs  # expect: running-loss-keeps-graph
    return {name: (t / n_images).item() for name, t in totals.items()}
