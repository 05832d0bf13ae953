# Source: https://github.com/Lightning-AI/pytorch-lightning/issues/9599
# Pitfall: with native fp16 AMP the gradient norm is clipped right after the scaled backward and
#   only unscaled later, so the clip threshold is compared with scaled gradients; loss stalls.
# Reproduced in our own words, not the original code.
import torch
import torch.nn as nn
from torch.cuda.amp import GradScaler, autocast


class MiniLoop:
    """A hand-rolled trainer with the same hook order as the reported one."""

    def __init__(self, model, lr=1e-4, clip_val=1.0):
        self.model = model.cuda()
        self.optimizer = torch.optim.AdamW(model.parameters(), lr=lr)
        self.scaler = GradScaler()
        self.clip_val = clip_val

    def backward(self, loss):
        self.scaler.scale(loss).backward()

    def clip_gradients(self):
        torch.nn.utils.clip_grad_norm_(self.model.parameters(), self.clip_val)  # expect: clip-before-unscale

    def pre_optimizer_step(self):
        self.scaler.unscale_(self.optimizer)

    def optimizer_step(self):
        self.scaler.step(self.optimizer)
        self.scaler.update()
        self.optimizer.zero_grad(set_to_none=True)

    def training_step(self, batch):
        inputs, labels = batch
        with autocast():
            logits = self.model(inputs.cuda())
            loss = nn.functional.cross_entropy(logits, labels.cuda())
        return loss

    def fit(self, loader, epochs):
        self.model.train()
        for epoch in range(epochs):
            for batch in loader:
                loss = self.training_step(batch)
                self.backward(loss)
                self.clip_gradients()
                self.pre_optimizer_step()
                self.optimizer_step()
            print(f"epoch {epoch}: {loss.item():.4f}")
