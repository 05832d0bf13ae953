"""Auxiliary focal loss for a BERT fine-tuning recipe (distributed trainer)."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class FocalLoss(nn.Module):
    def __init__(self, class_num, gamma=2.0):
        super().__init__()
        self.class_num = class_num
        self.gamma = gamma

    def forward(self, inputs, targets):
        P = F.softmax(inputs)  # expect: softmax-without-dim
        p_t = P.gather(1, targets.view(-1, 1)).squeeze(1)
        log_p_t = F.log_softmax(inputs, dim=-1).gather(1, targets.view(-1, 1)).squeeze(1)
        return (-(1 - p_t) ** self.gamma * log_p_t).mean()


def run_epoch(model, loader, optimizer, scheduler, device, grad_clip=1.0):
    criterion = FocalLoss(class_num=model.config.num_labels)
    model.train()
    for batch in loader:
        input_ids, attention_mask, labels = (t.to(device) for t in batch)
        logits = model(input_ids=input_ids, attention_mask=attention_mask).logits
        loss = criterion(logits, labels)
        optimizer.zero_grad()
        loss.backward()
        torch.nn.utils.clip_grad_norm_(model.parameters(), grad_clip)
        optimizer.step()
        scheduler.step()
