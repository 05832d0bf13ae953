"""Novel-class discovery: swapped-prediction loss between two augmented views."""
import torch
import torch.nn as nn
import torch.nn.functional as F


def sinkhorn(logits, n_iters=3, epsilon=0.05):
    q = torch.exp((logits - logits.max()) / epsilon).t()
    q /= q.sum()
    k, b = q.shape
    for _ in range(n_iters):
        q /= q.sum(dim=1, keepdim=True)
        q /= k
        q /= q.sum(dim=0, keepdim=True)
        q /= b
    return (q * b).t()


def soft_cross_entropy(preds, targets, temperature=0.1):
    # preds, targets: (batch, num_classes)
    log_preds = F.log_softmax(preds / temperature, dim=0)  # expect: softmax-over-batch-dim
    return -torch.mean(torch.sum(targets * log_preds, dim=1))


class DiscoveryHead(nn.Module):
    def __init__(self, feat_dim, n_labeled, n_unlabeled):
        super().__init__()
        self.head_lab = nn.Linear(feat_dim, n_labeled)
        self.head_unlab = nn.Linear(feat_dim, n_unlabeled)

    def forward(self, feats):
        feats = F.normalize(feats, dim=1)
        return torch.cat([self.head_lab(feats), self.head_unlab(feats)], dim=1)


def training_step(backbone, head, views, labels, mask_lab, n_labeled, optimizer):
    backbone.train()
    head.train()
    logits = [head(backbone(v)) for v in views]
    targets = []
    for lg in logits:
        t = torch.zeros_like(lg)
        t[mask_lab, :n_labeled] = F.one_hot(labels[mask_lab], n_labeled).float()
        with torch.no_grad():
            t[~mask_lab, n_labeled:] = sinkhorn(lg[~mask_lab, n_labeled:].detach())
        targets.append(t)
    loss = 0.5 * (soft_cross_entropy(logits[0], targets[1]) + soft_cross_entropy(logits[1], targets[0]))
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    return loss.item()
