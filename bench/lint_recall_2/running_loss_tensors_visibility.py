# Source: https://github.com/samuelyu2002/ImVisible/issues/2
# Pitfall: The training and validation loops add the loss tensors themselves (not loss.item()) to running totals; the training total drags along every step's computation graph and the script runs out of memory.
# Reproduced in our own words, not the original code.
import torch
import torch.nn as nn


def run_epoch(model, train_loader, val_loader, optimizer, alpha=0.5):
    mse = nn.MSELoss()
    ce = nn.CrossEntropyLoss()
    model.train()
    running_loss = 0.0
    running_loss_MSE = 0.0
    for images, points, labels in train_loader:
        optimizer.zero_grad()
        pred_points, pred_logits = model(images)
        MSE = mse(pred_points, points)
        cross_entropy = ce(pred_logits, labels)
        loss = alpha * MSE + (1 - alpha) * cross_entropy
        loss.backward()
        optimizer.step()
        running_loss += loss  # expect: running-loss-keeps-graph
        running_loss_MSE += MSE  # expect: running-loss-keeps-graph
    model.eval()
    val_running_loss = 0.0
    with torch.no_grad():
        for images, points, labels in val_loader:
            pred_points, pred_logits = model(images)
            val_running_loss += (alpha * mse(pred_points, points) + (1 - alpha) * ce(pred_logits, labels)).item()
    model.train()
    return running_loss / len(train_loader), running_loss_MSE / len(train_loader), val_running_loss / len(val_loader)
