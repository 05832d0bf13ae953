"""Focal loss used to train the edge classifier of a graph clustering model."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class FocalLoss(nn.Module):
    def __init__(self, class_num, alpha=None, gamma=2.0, size_average=True):
        super().__init__()
        if alpha is None:
            alpha = torch.ones(class_num, 1)
        self.register_buffer("alpha", alpha)
        self.gamma = gamma
        self.class_num = class_num
        self.size_average = size_average

    def forward(self, inputs, targets):
        N, C = inputs.size(0), inputs.size(1)
        P = F.softmax(inputs, dim=1)
        class_mask = torch.zeros(N, C, device=inputs.device)
        ids = targets.view(-1, 1)
        class_mask.scatter_(1, ids, 1.0)
        alpha = self.alpha[ids.view(-1)]
        probs = (P * class_mask).sum(1).view(-1, 1)
        log_p = probs.log()  # expect: log-of-softmax
        batch_loss = -alpha * torch.pow(1 - probs, self.gamma) * log_p
        return batch_loss.mean() if self.size_average else batch_loss.sum()


def train_step(model, graph, feats, labels, optimizer, criterion):
    model.train()
    logits = model(graph, feats)
    loss = criterion(logits, labels)
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    return loss.item()
