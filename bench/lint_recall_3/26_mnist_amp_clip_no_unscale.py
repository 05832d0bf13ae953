# Source: https://github.com/pytorch/pytorch/issues/40907
# Pitfall: Adding clip_grad_norm_ to an AMP MNIST loop, the user clips the scaled gradients (no
# scaler.unscale_ first); the clip crushes every update and the loss stops decreasing.
# Reproduced in our own words, not the original code.
import torch
import torch.nn.functional as F
from torch.cuda.amp import GradScaler, autocast
from torch.nn.utils import clip_grad_norm_


def train(model, device, train_loader, optimizer, epoch, scaler: GradScaler, log_interval=10):
    model.train()
    for batch_idx, (data, target) in enumerate(train_loader):
        data, target = data.to(device), target.to(device)
        optimizer.zero_grad()
        with autocast():
            output = model(data)
            loss = F.nll_loss(output, target)
        scaler.scale(loss).backward()
        clip_grad_norm_(model.parameters(), 12)  # expect: clip-before-unscale
        scaler.step(optimizer)
        scaler.update()
        if batch_idx % log_interval == 0:
            print(f"epoch {epoch} [{batch_idx * len(data)}/{len(train_loader.dataset)}] loss {loss.item():.4f}")
