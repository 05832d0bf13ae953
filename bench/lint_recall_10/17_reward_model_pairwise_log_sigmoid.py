# Source: https://github.com/hiyouga/LLaMA-Factory/commit/612d97db6f6c91a760669b8d3378d9558b4779a2
# Pitfall: the pairwise reward-model loss takes torch.log of torch.sigmoid(chosen - rejected) in two steps;
#   once the rejected reward is far ahead the sigmoid underflows to 0 and the loss becomes inf (fix: logsigmoid).
# Reproduced in our own words, not the original code.
import torch
from torch import nn


class ValueHeadModel(nn.Module):
    def __init__(self, backbone, hidden_size):
        super().__init__()
        self.backbone = backbone
        self.v_head = nn.Linear(hidden_size, 1, bias=False)

    def forward(self, input_ids, attention_mask):
        hidden = self.backbone(input_ids=input_ids, attention_mask=attention_mask).last_hidden_state
        values = self.v_head(hidden).squeeze(-1)
        last = attention_mask.sum(dim=1) - 1
        return values.gather(1, last.unsqueeze(1)).squeeze(1)


class PairwiseRewardTrainer:
    def __init__(self, model, lr=1e-5, max_norm=1.0):
        self.model = model
        self.max_norm = max_norm
        self.optimizer = torch.optim.AdamW(model.parameters(), lr=lr)

    def compute_loss(self, batch):
        bsz = batch["input_ids"].size(0) // 2
        rewards = self.model(batch["input_ids"], batch["attention_mask"])
        r_accept, r_reject = rewards[:bsz], rewards[bsz:]
        loss = -torch.log(torch.sigmoid(r_accept - r_reject)).mean()  # expect: log-of-softmax
        acc = (r_accept > r_reject).float().mean()
        return loss, acc

    def step(self, batch):
        self.model.train()
        loss, acc = self.compute_loss(batch)
        self.optimizer.zero_grad()
        loss.backward()
        nn.utils.clip_grad_norm_(self.model.parameters(), self.max_norm)
        self.optimizer.step()
        return loss.item(), acc.item()
