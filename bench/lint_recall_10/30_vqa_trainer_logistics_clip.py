# Source: https://github.com/facebookresearch/mmf/commit/0e3972f0ce2ff2ecbc7f4951c88b3e70241f3ddd
# Pitfall: the trainer clips gradients in its post-step "logistics" hook, after _backward() already ran
#   optimizer.step(), so the configured max norm never limits an update (the fix moves it before the step).
# Reproduced in our own words, not the original code.
import torch
from torch import nn


def clip_gradients(model, max_norm, writer=None, step=0):
    total_norm = nn.utils.clip_grad_norm_(model.parameters(), max_norm)
    if writer is not None:
        writer.add_scalar("grad_norm", total_norm, step)
    return total_norm


class VQATrainer:
    def __init__(self, model, optimizer, lr_scheduler, max_iterations, clip_norm=0.25, log_interval=100, writer=None):
        self.model = model
        self.optimizer = optimizer
        self.lr_scheduler = lr_scheduler
        self.max_iterations = max_iterations
        self.clip_norm = clip_norm
        self.should_clip_gradients = clip_norm is not None
        self.log_interval = log_interval
        self.writer = writer
        self.current_iteration = 0

    def _forward_pass(self, batch):
        logits = self.model(batch["image_feature"], batch["question"])
        return nn.functional.binary_cross_entropy_with_logits(logits, batch["answer_scores"]) * logits.size(1)

    def _backward(self, loss):
        self.optimizer.zero_grad()
        loss.backward()
        self.optimizer.step()

    def _logistics(self, loss):
        if self.should_clip_gradients:
            clip_gradients(self.model, self.clip_norm, self.writer, self.current_iteration)  # expect: clip-after-step
        if self.current_iteration % self.log_interval == 0:
            lr = self.optimizer.param_groups[0]["lr"]
            print(f"iter {self.current_iteration}: loss {loss.item():.4f} lr {lr:.5f}")

    def train(self, loader):
        self.model.train()
        while self.current_iteration < self.max_iterations:
            for batch in loader:
                self.current_iteration += 1
                loss = self._forward_pass(batch)
                self._backward(loss)
                self.lr_scheduler.step()
                self._logistics(loss)
                if self.current_iteration >= self.max_iterations:
                    break
