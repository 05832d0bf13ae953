"""Fused backward pass: each parameter is stepped from a grad hook as soon as its gradient is ready."""
import torch
from torch import nn
from torch.cuda.amp import GradScaler


class PerParamScaler(GradScaler):
    """GradScaler that can unscale and step one parameter at a time."""

    def unscale_parameter_(self, param, optimizer):
        inv_scale = 1.0 / self.get_scale()
        param.grad.mul_(inv_scale)

    def maybe_opt_step_parameter(self, param, group, index, optimizer):
        if torch.isfinite(param.grad).all():
            optimizer.step_parameter(param, group, index)


def register_fused_hooks(model, optimizer, scaler, max_norm=1.0):
    for group in optimizer.param_groups:
        for i, param in enumerate(group["params"]):
            if not param.requires_grad:
                continue

            def _hook(tensor, group=group, i=i):
                nn.utils.clip_grad_norm_(tensor, max_norm)  # expect: clip-before-unscale
                scaler.unscale_parameter_(tensor, optimizer)
                scaler.maybe_opt_step_parameter(tensor, group, i, optimizer)
                tensor.grad = None

            param.register_post_accumulate_grad_hook(_hook)


def train(model, optimizer, loader, epochs=1, device="cuda"):
    scaler = PerParamScaler()
    register_fused_hooks(model, optimizer, scaler)
    model.train()
    for _ in range(epochs):
        for batch in loader:
            latents = batch["latents"].to(device)
            target = batch["target"].to(device)
            with torch.autocast("cuda", dtype=torch.float16):
                pred = model(latents, batch["timesteps"].to(device))
            loss = nn.functional.mse_loss(pred.float(), target.float())
            scaler.scale(loss).backward()
            scaler.update()
