"""SQuAD-style span extraction with a focal loss on start/end positions."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class FocalLoss(nn.Module):
    def __init__(self, gamma=2.0):
        super().__init__()
        self.gamma = gamma

    def forward(self, inputs, targets):
        P = F.softmax(inputs)  # expect: softmax-without-dim
        p_t = P.gather(1, targets.unsqueeze(1)).squeeze(1)
        log_p_t = F.log_softmax(inputs, dim=1).gather(1, targets.unsqueeze(1)).squeeze(1)
        return (-(1.0 - p_t) ** self.gamma * log_p_t).mean()


def span_loss(start_logits, end_logits, start_positions, end_positions, criterion):
    ignored = start_logits.size(1)
    start_positions = start_positions.clamp(0, ignored - 1)
    end_positions = end_positions.clamp(0, ignored - 1)
    return (criterion(start_logits, start_positions) + criterion(end_logits, end_positions)) / 2


def train_steps(model, loader, optimizer, device, accumulation=1):
    criterion = FocalLoss()
    model.train()
    for step, batch in enumerate(loader):
        input_ids, segment_ids, input_mask, start_pos, end_pos = (t.to(device) for t in batch)
        start_logits, end_logits = model(input_ids, segment_ids, input_mask)
        loss = span_loss(start_logits, end_logits, start_pos, end_pos, criterion) / accumulation
        loss.backward()
        if (step + 1) % accumulation == 0:
            optimizer.step()
            optimizer.zero_grad()
