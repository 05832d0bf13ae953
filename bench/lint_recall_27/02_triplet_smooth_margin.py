"""Triplet-margin loss with a 'smooth' variant, used to train a face-embedding head."""
import torch
from torch import nn
import torch.nn.functional as F


class TripletMarginLoss(nn.Module):
    def __init__(self, margin=0.05, smooth_loss=True):
        super().__init__()
        self.margin = margin
        self.smooth_loss = smooth_loss

    def forward(self, anchor, positive, negative):
        ap_dists = F.pairwise_distance(anchor, positive)
        an_dists = F.pairwise_distance(anchor, negative)
        current_margins = an_dists - ap_dists
        if self.smooth_loss:
            loss = torch.log(1 + torch.exp(-current_margins))  # expect: unshifted-logsumexp
        else:
            loss = F.relu(-current_margins + self.margin)
        return loss.mean()


class Head(nn.Module):
    def __init__(self, dim=512, out=128):
        super().__init__()
        self.proj = nn.Linear(dim, out)

    def forward(self, feats):
        return F.normalize(self.proj(feats), dim=-1)


def fit(head, triplet_batches, steps=1000, lr=3e-4):
    criterion = TripletMarginLoss(smooth_loss=True)
    optimizer = torch.optim.AdamW(head.parameters(), lr=lr, weight_decay=1e-4)
    head.train()
    history = []
    for step, (a, p, n) in zip(range(steps), triplet_batches):
        optimizer.zero_grad(set_to_none=True)
        loss = criterion(head(a), head(p), head(n))
        loss.backward()
        optimizer.step()
        history.append(loss.item())
        if step % 100 == 0:
            recent = history[-100:]
            print(step, sum(recent) / max(len(recent), 1))
    return history
