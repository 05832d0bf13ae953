# Source: https://github.com/pytorch/examples/issues/1196
# Pitfall: with a GradScaler the gradients are clipped while still multiplied by the scale
# (no scaler.unscale_ first), so the clip threshold is meaningless.
# Reproduced in our own words, not the original code.
import torch


class Trainer:
    def __init__(self, model, optimizer, grad_norm_clip=1.0):
        self.model, self.optimizer = model, optimizer
        self.scaler = torch.amp.GradScaler("cuda")
        self.grad_norm_clip = grad_norm_clip

    def _run_batch(self, source, targets):
        with torch.autocast(device_type="cuda", dtype=torch.float16):
            _, loss = self.model(source, targets)
        self.optimizer.zero_grad(set_to_none=True)
        self.scaler.scale(loss).backward()
        torch.nn.utils.clip_grad_norm_(self.model.parameters(), self.grad_norm_clip)  # expect: clip-before-unscale
        self.scaler.step(self.optimizer)
        self.scaler.update()
        return loss.item()
