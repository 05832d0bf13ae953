# Source: https://github.com/Lightning-AI/pytorch-lightning/pull/10248
# Pitfall: the loop's hook order ran optimizer.step() first and clip_gradients afterwards, so the
#   clipping touched gradients that had already been applied; the PR moved clipping before the step.
# Reproduced in our own words, not the original code.
import torch
import torch.nn as nn


class ManualLoop:
    def __init__(self, module, lr=1e-3, gradient_clip_val=0.5, log_every=50):
        self.module = module
        self.optimizer = torch.optim.Adam(module.parameters(), lr=lr)
        self.gradient_clip_val = gradient_clip_val
        self.log_every = log_every
        self.global_step = 0

    def closure(self, batch):
        self.optimizer.zero_grad()
        loss = self.module.training_step(batch)
        loss.backward()
        return loss

    def grad_norm(self):
        norms = [p.grad.detach().norm(2) for p in self.module.parameters() if p.grad is not None]
        return torch.stack(norms).norm(2).item() if norms else 0.0

    def run_batch(self, batch):
        loss = self.closure(batch)
        self.optimizer.step()
        if self.global_step % self.log_every == 0:
            print(f"step {self.global_step}: loss {loss.item():.4f} grad_norm {self.grad_norm():.3f}")
        if self.gradient_clip_val > 0:
            nn.utils.clip_grad_norm_(self.module.parameters(), self.gradient_clip_val)  # expect: clip-after-step
        self.global_step += 1

    def fit(self, loader, epochs):
        self.module.train()
        for _ in range(epochs):
            for batch in loader:
                self.run_batch(batch)
