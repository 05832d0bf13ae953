"""torchvision-style detection reference: train_one_epoch with optional AMP."""
import math
import sys
import torch


def train_one_epoch(model, optimizer, data_loader, device, epoch, print_freq, scaler=None, clip_grad_norm=None):
    model.train()
    for i, (images, targets) in enumerate(data_loader):
        images = [image.to(device) for image in images]
        targets = [{k: v.to(device) for k, v in t.items()} for t in targets]
        with torch.cuda.amp.autocast(enabled=scaler is not None):
            loss_dict = model(images, targets)
            losses = sum(loss for loss in loss_dict.values())
        loss_value = losses.item()
        if not math.isfinite(loss_value):
            print(f"Loss is {loss_value}, stopping training")
            sys.exit(1)
        optimizer.zero_grad()
        if scaler is not None:
            scaler.scale(losses).backward()
            if clip_grad_norm is not None:
                torch.nn.utils.clip_grad_norm_(model.parameters(), clip_grad_norm)  # expect: clip-before-unscale
            scaler.step(optimizer)
            scaler.update()
        else:
            losses.backward()
            if clip_grad_norm is not None:
                torch.nn.utils.clip_grad_norm_(model.parameters(), clip_grad_norm)
            optimizer.step()
        if i % print_freq == 0:
            print(f"epoch {epoch} iter {i} loss {loss_value:.4f}")
