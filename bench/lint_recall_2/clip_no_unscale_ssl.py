# Source: https://github.com/TorchSSL/TorchSSL/pull/59
# Pitfall: In the mixed-precision branch the semi-supervised trainer clips the still-scaled gradients (no scaler.unscale_ before clip_grad_norm_), so the clip value is meaningless and updates are shrunk by the loss scale.
# Reproduced in our own words, not the original code.
import torch
import torch.nn.functional as F
from torch.cuda.amp import GradScaler, autocast


def train_ssl(model, optimizer, scheduler, loader_lb, loader_ulb, clip=5.0, amp=True, lambda_u=1.0):
    scaler = GradScaler()
    model.train()
    for (x_lb, y_lb), (x_ulb_w, x_ulb_s) in zip(loader_lb, loader_ulb):
        x_lb, y_lb = x_lb.cuda(), y_lb.cuda()
        x_ulb_w, x_ulb_s = x_ulb_w.cuda(), x_ulb_s.cuda()
        with autocast(enabled=amp):
            logits_lb = model(x_lb)
            with torch.no_grad():
                pseudo = torch.softmax(model(x_ulb_w), dim=-1)
                conf, pseudo_label = pseudo.max(dim=-1)
                mask = conf.ge(0.95).float()
            unsup = (F.cross_entropy(model(x_ulb_s), pseudo_label, reduction="none") * mask).mean()
            total_loss = F.cross_entropy(logits_lb, y_lb) + lambda_u * unsup
        if amp:
            scaler.scale(total_loss).backward()
            if clip > 0:
                torch.nn.utils.clip_grad_norm_(model.parameters(), clip)  # expect: clip-before-unscale
            scaler.step(optimizer)
            scaler.update()
        else:
            total_loss.backward()
            if clip > 0:
                torch.nn.utils.clip_grad_norm_(model.parameters(), clip)
            optimizer.step()
        scheduler.step()
        model.zero_grad()
