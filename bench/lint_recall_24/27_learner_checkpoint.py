"""A minimal learner object for an RL post-training loop, with in-memory checkpoints."""
import torch
from torch import nn


class Learner:
    def __init__(self, policy: nn.Module, lr=1e-5, max_grad_norm=1.0):
        self.model = policy
        self.optimizer = torch.optim.AdamW(policy.parameters(), lr=lr)
        self.max_grad_norm = max_grad_norm
        self.updates = 0

    def update(self, loss):
        self.optimizer.zero_grad()
        loss.backward()
        nn.utils.clip_grad_norm_(self.model.parameters(), self.max_grad_norm)
        self.optimizer.step()
        self.updates += 1
        return loss.item()

    def checkpoint(self):
        return {
            "model": self.model.state_dict(),  # expect: state-dict-not-copied
            "updates": self.updates,
        }

    def load_checkpoint(self, ckpt):
        self.model.load_state_dict(ckpt["model"])
        self.updates = ckpt["updates"]


def train_with_rollback(learner, batches, loss_fn, patience=3):
    best = (float("inf"), learner.checkpoint())
    bad = 0
    for batch in batches:
        value = learner.update(loss_fn(learner.model, batch))
        if value < best[0]:
            best, bad = (value, learner.checkpoint()), 0
        else:
            bad += 1
            if bad >= patience:
                learner.load_checkpoint(best[1])
                bad = 0
    return best[0]
