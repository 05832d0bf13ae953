"""Pairwise reward-model trainer (chosen vs. rejected responses)."""
import math

import torch
import torch.nn.functional as F
from tqdm import tqdm


class PairwiseLoss(torch.nn.Module):
    def forward(self, chosen_reward, reject_reward, margin=None):
        diff = chosen_reward - reject_reward
        if margin is not None:
            diff = diff - margin
        return -F.logsigmoid(diff).mean()


class RewardModelTrainer:
    def __init__(self, model, optimizer, scheduler, train_loader, eval_loader, max_epochs=1, eval_steps=200):
        self.model = model
        self.optimizer = optimizer
        self.scheduler = scheduler
        self.train_loader = train_loader
        self.eval_loader = eval_loader
        self.max_epochs = max_epochs
        self.eval_steps = eval_steps
        self.loss_fn = PairwiseLoss()

    def concatenated_forward(self, chosen_ids, c_mask, reject_ids, r_mask):
        ids = torch.cat([chosen_ids, reject_ids], dim=0)
        mask = torch.cat([c_mask, r_mask], dim=0)
        rewards = self.model(ids, attention_mask=mask)
        return rewards[: chosen_ids.size(0)], rewards[chosen_ids.size(0):]

    def fit(self):
        global_step = 0
        for epoch in range(self.max_epochs):
            self.model.train()
            for chosen_ids, c_mask, reject_ids, r_mask, margin in tqdm(self.train_loader, desc=f"epoch {epoch}"):
                chosen, reject = self.concatenated_forward(chosen_ids, c_mask, reject_ids, r_mask)
                loss = self.loss_fn(chosen, reject, margin)
                self.optimizer.zero_grad()
                loss.backward()
                self.optimizer.step()
                self.scheduler.step()
                global_step += 1
                if global_step % self.eval_steps == 0:
                    self.evaluate(global_step)

    def evaluate(self, steps):
        self.model.eval()  # expect: train-mode-not-restored
        acc, loss_sum, n = 0.0, 0.0, 0
        with torch.no_grad():
            for chosen_ids, c_mask, reject_ids, r_mask, margin in self.eval_loader:
                chosen, reject = self.concatenated_forward(chosen_ids, c_mask, reject_ids, r_mask)
                loss_sum += self.loss_fn(chosen, reject, margin).item()
                acc += (chosen > reject).float().mean().item()
                n += 1
        n = max(n, 1)
        print(f"step {steps}: eval loss {loss_sum / n:.4f}, acc {acc / n:.4f}, ppl-ish {math.exp(loss_sum / n):.3f}")
