"""Manual-optimization helper: clip gradients of a module trained with a GradScaler."""
import torch
from torch import nn


class AmpTrainer:
    def __init__(self, model, lr=3e-4, clip_val=1.0, device="cuda"):
        self.model = model.to(device)
        self.device = device
        self.optimizer = torch.optim.AdamW(model.parameters(), lr=lr)
        self.scaler = torch.cuda.amp.GradScaler()
        self.clip_val = clip_val

    def clip_gradients(self, optimizer, gradient_clip_val):
        params = [p for g in optimizer.param_groups for p in g["params"] if p.grad is not None]
        torch.nn.utils.clip_grad_norm_(params, gradient_clip_val)  # expect: clip-before-unscale

    def training_step(self, x, y):
        self.optimizer.zero_grad(set_to_none=True)
        with torch.autocast(device_type="cuda", dtype=torch.float16):
            loss = nn.functional.cross_entropy(self.model(x.to(self.device)), y.to(self.device))
        self.scaler.scale(loss).backward()
        self.clip_gradients(self.optimizer, self.clip_val)
        self.scaler.step(self.optimizer)
        self.scaler.update()
        return loss.item()
