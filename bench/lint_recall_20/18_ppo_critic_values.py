"""Critic actor for PPO-style RLHF: estimates values for generated sequences."""
import torch
import torch.nn as nn


class ValueHead(nn.Module):
    def __init__(self, backbone, hidden_size, dropout=0.1):
        super().__init__()
        self.backbone = backbone
        self.dropout = nn.Dropout(dropout)
        self.value_head = nn.Linear(hidden_size, 1)

    def forward(self, sequences, action_mask, attention_mask):
        hidden = self.backbone(sequences, attention_mask=attention_mask).last_hidden_state
        values = self.value_head(self.dropout(hidden)).squeeze(-1)[:, :-1]
        num_actions = action_mask.size(1)
        return values[:, -num_actions:]


class CriticWorker:
    def __init__(self, critic, optimizer, clip_eps=0.2):
        self.critic = critic
        self.optimizer = optimizer
        self.clip_eps = clip_eps

    def compute_values(self, sequences, action_mask, attention_mask):
        """Called by the experience maker while rolling out; no gradients needed."""
        device = torch.cuda.current_device()
        with torch.no_grad():
            value = self.critic(  # expect: validation-in-train-mode
                sequences.to(device), action_mask.to(device), attention_mask.to(device)
            )
        return value.to("cpu")

    def training_step(self, batch):
        self.critic.train()
        values = self.critic(batch["sequences"], batch["action_mask"], batch["attention_mask"])
        clipped = batch["old_values"] + (values - batch["old_values"]).clamp(-self.clip_eps, self.clip_eps)
        surr1 = (values - batch["returns"]) ** 2
        surr2 = (clipped - batch["returns"]) ** 2
        mask = batch["action_mask"].float()
        loss = 0.5 * (torch.max(surr1, surr2) * mask).sum() / mask.sum().clamp(min=1)
        self.optimizer.zero_grad()
        loss.backward()
        self.optimizer.step()
        return loss.item()
