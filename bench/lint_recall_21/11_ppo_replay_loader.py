"""PPO fine-tuning loop for a causal LM actor: experiences are collected, then replayed for a few epochs."""
from abc import ABC

import torch
import torch.nn.functional as F
from torch.utils.data import DataLoader, Dataset


class NaiveReplayBuffer(Dataset):
    def __init__(self, sample_batch_size):
        self.sample_batch_size = sample_batch_size
        self.items = []

    def append(self, experience):
        for i in range(experience["sequences"].size(0)):
            self.items.append({k: v[i] for k, v in experience.items()})

    def clear(self):
        self.items.clear()

    def __len__(self):
        return len(self.items)

    def __getitem__(self, idx):
        return self.items[idx]

    @staticmethod
    def collate_fn(batch):
        return {k: torch.stack([b[k] for b in batch]) for k in batch[0]}


class PPOTrainer(ABC):
    def __init__(self, actor, actor_optim, replay_buffer, max_epochs=1, eps_clip=0.2, pin_memory=True):
        self.actor = actor
        self.actor_optim = actor_optim
        self.replay_buffer = replay_buffer
        self.max_epochs = max_epochs
        self.eps_clip = eps_clip
        self.dataloader_pin_memory = pin_memory

    def policy_loss(self, log_probs, old_log_probs, advantages, mask):
        ratio = (log_probs - old_log_probs).exp()
        surr1 = ratio * advantages
        surr2 = ratio.clamp(1 - self.eps_clip, 1 + self.eps_clip) * advantages
        loss = -torch.min(surr1, surr2)
        return (loss * mask).sum() / mask.sum().clamp(min=1)

    def action_log_probs(self, sequences, attention_mask, num_actions):
        logits = self.actor(sequences, attention_mask=attention_mask).logits
        log_probs = F.log_softmax(logits[:, :-1, :], dim=-1)
        log_probs = log_probs.gather(-1, sequences[:, 1:].unsqueeze(-1)).squeeze(-1)
        return log_probs[:, -num_actions:]

    def ppo_train(self):
        # replay buffer may be empty at first, rebuild the loader at each training phase
        dataloader = DataLoader(  # expect: train-loader-not-shuffled
            self.replay_buffer,
            batch_size=self.replay_buffer.sample_batch_size,
            drop_last=False,
            pin_memory=True,
            collate_fn=self.replay_buffer.collate_fn,
        )
        device = torch.cuda.current_device()
        self.actor.train()
        status_list = []
        for epoch in range(self.max_epochs):
            for experience in dataloader:
                experience = {k: v.to(device, non_blocking=True) for k, v in experience.items()}
                num_actions = experience["action_mask"].size(1)
                log_probs = self.action_log_probs(experience["sequences"], experience["attention_mask"], num_actions)
                loss = self.policy_loss(log_probs, experience["action_log_probs"], experience["advantages"],
                                        experience["action_mask"])
                self.actor_optim.zero_grad()
                loss.backward()
                torch.nn.utils.clip_grad_norm_(self.actor.parameters(), 1.0)
                self.actor_optim.step()
                status_list.append(loss.item())
        self.replay_buffer.clear()
        return sum(status_list) / max(len(status_list), 1)
