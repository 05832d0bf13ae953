import torch
import torch.nn as nn


def bbox_overlaps_aligned(pred, target, eps=1e-6):
    lt = torch.max(pred[:, :2], target[:, :2])
    rb = torch.min(pred[:, 2:], target[:, 2:])
    wh = (rb - lt).clamp(min=0)
    overlap = wh[:, 0] * wh[:, 1]
    area_p = (pred[:, 2] - pred[:, 0]) * (pred[:, 3] - pred[:, 1])
    area_t = (target[:, 2] - target[:, 0]) * (target[:, 3] - target[:, 1])
    return overlap / (area_p + area_t - overlap + eps)


def iou_loss(pred, target):
    ious = bbox_overlaps_aligned(pred, target)
    loss = -ious.log()  # expect: unguarded-zero
    return loss.mean()


class IoULoss(nn.Module):
    def __init__(self, loss_weight=1.0):
        super().__init__()
        self.loss_weight = loss_weight

    def forward(self, pred, target, weight=None):
        if weight is not None and not torch.any(weight > 0):
            return (pred * weight.unsqueeze(-1)).sum()
        return self.loss_weight * iou_loss(pred, target)


def train_head(head, loader, epochs=12):
    criterion = IoULoss()
    opt = torch.optim.SGD(head.parameters(), lr=0.01, momentum=0.9, weight_decay=1e-4)
    head.train()
    for _ in range(epochs):
        for feats, gt_boxes in loader:
            opt.zero_grad()
            loss = criterion(head(feats), gt_boxes)
            loss.backward()
            opt.step()
