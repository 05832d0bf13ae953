"""Reward-model training on preference pairs (chosen vs. rejected completion)."""
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader


class LogExpLoss(nn.Module):
    """Pairwise ranking loss log(1 + exp(r_rejected - r_chosen))."""

    def forward(self, chosen_reward, reject_reward, margin=None):
        diff = reject_reward - chosen_reward
        if margin is not None:
            diff = diff + margin
        loss = torch.log(1 + torch.exp(diff)).mean()  # expect: unshifted-logsumexp
        return loss


class RewardModel(nn.Module):
    def __init__(self, backbone, hidden_size):
        super().__init__()
        self.backbone = backbone
        self.value_head = nn.Linear(hidden_size, 1)

    def forward(self, input_ids, attention_mask):
        hidden = self.backbone(input_ids=input_ids, attention_mask=attention_mask).last_hidden_state
        last = attention_mask.sum(dim=1) - 1
        pooled = hidden[torch.arange(hidden.size(0), device=hidden.device), last]
        return self.value_head(pooled).squeeze(-1)


def train_reward_model(model, dataset, epochs=1, lr=9e-6, batch_size=8, device="cuda"):
    loader = DataLoader(dataset, batch_size=batch_size, shuffle=True, drop_last=True)
    optimizer = torch.optim.AdamW(model.parameters(), lr=lr, betas=(0.9, 0.95), weight_decay=0.0)
    loss_fn = LogExpLoss()
    model.to(device)
    for epoch in range(epochs):
        model.train()
        acc_sum, loss_sum, n = 0.0, 0.0, 0
        for batch in loader:
            c_ids, c_mask = batch["chosen_ids"].to(device), batch["chosen_mask"].to(device)
            r_ids, r_mask = batch["reject_ids"].to(device), batch["reject_mask"].to(device)
            chosen = model(c_ids, c_mask)
            reject = model(r_ids, r_mask)
            loss = loss_fn(chosen, reject)
            optimizer.zero_grad()
            loss.backward()
            torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
            optimizer.step()
            acc_sum += (chosen > reject).float().mean().item()
            loss_sum += loss.item()
            n += 1
        print(f"epoch {epoch}: loss {loss_sum / max(n, 1):.4f} acc {acc_sum / max(n, 1):.3f}")


def pairwise_logsigmoid(chosen, reject):
    return -F.logsigmoid(chosen - reject).mean()
