import torch
import torch.nn.functional as F
from torch.amp import GradScaler, autocast


def train_one_epoch(model, loader, optimizer, scheduler, conf, device="cuda"):
    scaler = GradScaler("cuda", enabled=conf["amp"])
    grad_max_norm = conf.get("grad_max_norm", 1.0)
    model.train()
    losses = []
    for batch in loader:
        x = batch["x"].to(device)
        y = batch["y"].to(device)
        optimizer.zero_grad(set_to_none=True)
        with autocast("cuda", enabled=conf["amp"]):
            y_pred = model(x)
            loss = F.mse_loss(y_pred, y)
        scaler.scale(loss).backward()
        if grad_max_norm > 0:
            torch.nn.utils.clip_grad_norm_(model.parameters(), max_norm=grad_max_norm)  # expect: clip-before-unscale
        scaler.step(optimizer)
        scaler.update()
        scheduler.step()
        losses.append(loss.item())
    return sum(losses) / len(losses)


def validate(model, loader, device="cuda"):
    model.eval()
    total, n = 0.0, 0
    with torch.no_grad():
        for batch in loader:
            x = batch["x"].to(device)
            y = batch["y"].to(device)
            total += F.mse_loss(model(x), y).item()
            n += 1
    model.train()
    return total / max(n, 1)
