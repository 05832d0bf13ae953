# Source: https://github.com/jokester-zzz/SSA-SC/issues/2
# Pitfall: Training and validation losses are accumulated per key by adding the loss tensors
# themselves (not .item()), so GPU memory keeps rising through the epoch.
# Reproduced in our own words, not the original code.
import torch


def train_epoch(model, loader, optimizer, device):
    model.train()
    epoch_loss = {"total": 0.0, "semantic": 0.0, "completion": 0.0}
    steps = 0
    for voxels, labels in loader:
        voxels = voxels.to(device)
        labels = {k: v.to(device) for k, v in labels.items()}
        optimizer.zero_grad()
        scores = model(voxels)
        losses = model.compute_loss(scores, labels)
        losses["total"].backward()
        optimizer.step()
        for key in epoch_loss:
            epoch_loss[key] += losses[key]  # expect: running-loss-keeps-graph
        steps += 1
    return {k: float(v) / max(steps, 1) for k, v in epoch_loss.items()}
