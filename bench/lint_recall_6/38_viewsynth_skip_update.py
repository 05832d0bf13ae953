# Source: https://github.com/Haian-Jin/LVSM/pull/19
# Pitfall: when the grad norm is too large the step is skipped, and scaler.update() sits inside the same branch,
#   so on skipped iterations the GradScaler is never updated; the next unscale_ raises and the scale never backs off.
# Reproduced in our own words, not the original code.
import torch
import torch.nn as nn


def train(model, loader, lr=4e-4, max_norm=1.0, skip_norm=5.0, device="cuda"):
    optimizer = torch.optim.AdamW(model.parameters(), lr=lr, betas=(0.9, 0.95))
    scaler = torch.amp.GradScaler("cuda")
    l2 = nn.MSELoss()
    model.train()
    for step, (views, target) in enumerate(loader):
        views = views.to(device, non_blocking=True)
        target = target.to(device, non_blocking=True)
        optimizer.zero_grad(set_to_none=True)
        with torch.autocast("cuda", dtype=torch.float16):
            rendered = model(views)
            loss = l2(rendered, target)
        scaler.scale(loss).backward()
        scaler.unscale_(optimizer)
        grad_norm = torch.nn.utils.clip_grad_norm_(model.parameters(), max_norm)
        if grad_norm.item() <= skip_norm:
            scaler.step(optimizer)
            scaler.update()  # expect: scaler-update-missing
        else:
            print(f"step {step}: grad norm {grad_norm.item():.2f} too large, skipping")
