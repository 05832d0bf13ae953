# Source: https://github.com/facebookresearch/ParlAI/pull/2105
# Pitfall: the agent's update() advances the warmup/invsqrt LR scheduler before calling
#   optimizer.step(), so PyTorch >= 1.1 skips the first value of the schedule (and warns).
# Reproduced in our own words, not the original code.
import torch
import torch.nn as nn


def invsqrt_lambda(warmup_updates):
    def fn(step):
        step = max(step, 1)
        if step < warmup_updates:
            return step / warmup_updates
        return (warmup_updates / step) ** 0.5
    return fn


class RankerAgent:
    def __init__(self, model, lr=1e-4, warmup_updates=4000, grad_clip=0.1):
        self.model = model
        self.optimizer = torch.optim.Adam(model.parameters(), lr=lr)
        self.scheduler = torch.optim.lr_scheduler.LambdaLR(self.optimizer, invsqrt_lambda(warmup_updates))
        self.criterion = nn.CrossEntropyLoss()
        self.grad_clip = grad_clip
        self._number_training_updates = 0

    def backward(self, loss):
        loss.backward()

    def update_params(self):
        self._number_training_updates += 1
        self.scheduler.step()  # expect: scheduler-before-optimizer
        if self.grad_clip > 0:
            nn.utils.clip_grad_norm_(self.model.parameters(), self.grad_clip)
        self.optimizer.step()
        self.optimizer.zero_grad()

    def train_step(self, context_vecs, cand_vecs, label_idx):
        self.model.train()
        scores = self.model(context_vecs, cand_vecs)
        loss = self.criterion(scores, label_idx)
        self.backward(loss)
        self.update_params()
        return loss.item()
