# Source: https://github.com/milesial/Pytorch-UNet/issues/468
# Pitfall: train.py clips the scaled gradients of the AMP run before unscaling them.
# Reproduced in our own words, not the original code.
import torch


def train_epoch(model, loader, optimizer, criterion, grad_scaler, amp=True, clip=1.0):
    model.train()
    for images, masks in loader:
        with torch.autocast("cuda", enabled=amp):
            loss = criterion(model(images), masks)
        optimizer.zero_grad(set_to_none=True)
        grad_scaler.scale(loss).backward()
        torch.nn.utils.clip_grad_norm_(model.parameters(), clip)  # expect: clip-before-unscale
        grad_scaler.step(optimizer)
        grad_scaler.update()
