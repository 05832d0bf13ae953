# Source: https://github.com/samuelyu2002/ImVisible/issues/2
# Pitfall: three running sums (total, MSE part, cross-entropy part) accumulate loss tensors
# instead of .item() values; RAM fills up during the epoch.
# Reproduced in our own words, not the original code.
import torch.nn.functional as F


def train_epoch(model, loader, optimizer):
    running_loss = running_mse = running_ce = 0.0
    for images, points, labels in loader:
        optimizer.zero_grad()
        pred_points, logits = model(images)
        mse = F.mse_loss(pred_points, points)
        ce = F.cross_entropy(logits, labels)
        loss = mse + ce
        loss.backward()
        optimizer.step()
        running_loss += loss  # expect: running-loss-keeps-graph
        running_mse += mse  # expect: running-loss-keeps-graph
        running_ce += ce  # expect: running-loss-keeps-graph
    n = len(loader)
    return running_loss / n, running_mse / n, running_ce / n
