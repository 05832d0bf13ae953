# Source: https://github.com/NCAR/miles-credit/pull/141
# Pitfall: gradient clipping in the weather-model trainer ran before the GradScaler unscaled
# the gradients.
# Reproduced in our own words, not the original code.
import torch


def train_one_epoch(model, loader, optimizer, scaler, criterion, grad_max_norm=1.0):
    for x, y in loader:
        optimizer.zero_grad()
        with torch.autocast(device_type="cuda", dtype=torch.float16):
            loss = criterion(model(x), y)
        scaler.scale(loss).backward()
        if grad_max_norm > 0:
            torch.nn.utils.clip_grad_norm_(model.parameters(), max_norm=grad_max_norm)  # expect: clip-before-unscale
        scaler.step(optimizer)
        scaler.update()
