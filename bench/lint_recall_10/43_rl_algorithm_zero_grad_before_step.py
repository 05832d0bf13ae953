# Source: https://github.com/HorizonRobotics/alf/pull/1788
# Pitfall: the algorithm's gradient update zeroes the optimizer on every call, even when gradient accumulation over
#   several mini-batches is configured, so all but the last mini-batch before each step are discarded.
# Reproduced in our own words, not the original code.
import torch


class ActorCriticUpdater:
    def __init__(self, module, lr=3e-4, grad_acc_steps=4, max_norm=0.5):
        self.module = module
        self.optimizer = torch.optim.Adam(module.parameters(), lr=lr)
        self.grad_acc_steps = grad_acc_steps
        self.max_norm = max_norm
        self._micro = 0

    def _loss(self, batch):
        dist, value = self.module(batch["obs"])
        logp = dist.log_prob(batch["action"]).sum(-1)
        pg = -(logp * batch["advantage"]).mean()
        vf = 0.5 * (value.squeeze(-1) - batch["returns"]).pow(2).mean()
        ent = dist.entropy().sum(-1).mean()
        return pg + 0.5 * vf - 0.01 * ent

    def update_with_gradient(self, batch):
        self.optimizer.zero_grad()  # expect: grad-cleared-before-step
        loss = self._loss(batch) / self.grad_acc_steps
        loss.backward()
        self._micro += 1
        if self._micro % self.grad_acc_steps == 0:
            torch.nn.utils.clip_grad_norm_(self.module.parameters(), self.max_norm)
            self.optimizer.step()
        return loss.item() * self.grad_acc_steps

    def train_iter(self, minibatches):
        self.module.train()
        return [self.update_with_gradient(mb) for mb in minibatches]
