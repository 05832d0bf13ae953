"""Pairwise reward model (RLHF step 2): chosen vs rejected completions."""
import torch
import torch.nn as nn


class RewardModel(nn.Module):
    def __init__(self, base_model, hidden_size, pad_id):
        super().__init__()
        self.rwtransformer = base_model
        self.v_head = nn.Linear(hidden_size, 1, bias=False)
        self.pad_id = pad_id

    def forward(self, input_ids, attention_mask):
        hidden = self.rwtransformer(input_ids, attention_mask=attention_mask)[0]
        rewards = self.v_head(hidden).squeeze(-1)
        bs = input_ids.shape[0] // 2
        chosen_ids, rejected_ids = input_ids[:bs], input_ids[bs:]
        chosen_r, rejected_r = rewards[:bs], rewards[bs:]
        loss = 0.0
        for i in range(bs):
            c_inds = (chosen_ids[i] == self.pad_id).nonzero()
            c_end = c_inds[0].item() if len(c_inds) > 0 else chosen_ids.shape[1]
            diverge = (chosen_ids[i] != rejected_ids[i]).nonzero()
            start = diverge[0].item() if len(diverge) > 0 else c_end - 1
            c_trunc = chosen_r[i, start:c_end]
            r_trunc = rejected_r[i, start:c_end]
            loss += -torch.log(torch.sigmoid(c_trunc - r_trunc)).mean()  # expect: log-of-softmax
        return loss / bs


def train_epoch(model, loader, optimizer, device):
    model.train()
    for batch in loader:
        ids = torch.cat([batch["chosen_ids"], batch["rejected_ids"]]).to(device)
        mask = torch.cat([batch["chosen_mask"], batch["rejected_mask"]]).to(device)
        loss = model(ids, mask)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
