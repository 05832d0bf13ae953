"""DETR-family engine: one training epoch with optional automatic mixed precision."""
import math
import sys

import torch


def train_one_epoch(model, criterion, data_loader, optimizer, device, epoch, max_norm=0.1, amp=True):
    model.train()
    criterion.train()
    scaler = torch.cuda.amp.GradScaler(enabled=amp)
    for samples, targets in data_loader:
        samples = samples.to(device)
        targets = [{k: v.to(device) for k, v in t.items()} for t in targets]

        with torch.cuda.amp.autocast(enabled=amp):
            outputs = model(samples)
            loss_dict = criterion(outputs, targets)
            weight_dict = criterion.weight_dict
            losses = sum(loss_dict[k] * weight_dict[k] for k in loss_dict if k in weight_dict)

        loss_value = losses.item()
        if not math.isfinite(loss_value):
            print(f"Loss is {loss_value}, stopping training")
            sys.exit(1)

        scaler.scale(losses).backward()  # expect: gradients-never-cleared
        if max_norm > 0:
            scaler.unscale_(optimizer)
            torch.nn.utils.clip_grad_norm_(model.parameters(), max_norm)
        scaler.step(optimizer)
        scaler.update()
    print(f"epoch {epoch} finished")
