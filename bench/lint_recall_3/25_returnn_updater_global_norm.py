# Source: https://github.com/rwth-i6/returnn/issues/1590
# Pitfall: With a grad scaler active the updater applies the global-norm gradient clip to the still-scaled
# gradients, so the effective clip threshold is reduced by the scale factor (about 65k).
# Reproduced in our own words, not the original code.
import torch


class Updater:
    def __init__(self, model, optimizer, clip_global_norm=None, use_amp=True):
        self.model = model
        self.optimizer = optimizer
        self.clip_global_norm = clip_global_norm
        self.grad_scaler = torch.amp.GradScaler("cuda", enabled=use_amp)

    def backward(self, total_loss):
        self.grad_scaler.scale(total_loss).backward()

    def step(self):
        if self.clip_global_norm is not None:
            torch.nn.utils.clip_grad_norm_(self.model.parameters(), self.clip_global_norm)  # expect: clip-before-unscale
        self.grad_scaler.step(self.optimizer)
        self.grad_scaler.update()
        self.optimizer.zero_grad(set_to_none=True)


def train_steps(model, updater, batches, compute_loss):
    model.train()
    for batch in batches:
        with torch.autocast("cuda", dtype=torch.float16):
            loss = compute_loss(model, batch)
        updater.backward(loss)
        updater.step()
