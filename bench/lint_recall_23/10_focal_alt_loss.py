"""RetinaNet losses: smooth-L1 box regression plus an alternative focal classification term."""
import torch
import torch.nn as nn
import torch.nn.functional as F


def one_hot_embedding(labels, num_classes):
    return torch.eye(num_classes, device=labels.device)[labels]


class FocalLoss(nn.Module):
    def __init__(self, num_classes=20, alpha=0.25):
        super().__init__()
        self.num_classes = num_classes
        self.alpha = alpha

    def focal_loss_alt(self, x, y):
        t = one_hot_embedding(y, 1 + self.num_classes)[:, 1:]
        xt = x * (2 * t - 1)
        pt = (2 * xt + 1).sigmoid()
        w = self.alpha * t + (1 - self.alpha) * (1 - t)
        loss = -w * pt.log() / 2  # expect: log-of-softmax, unguarded-zero
        return loss.sum()

    def forward(self, loc_preds, loc_targets, cls_preds, cls_targets):
        pos = cls_targets > 0
        num_pos = pos.sum().clamp(min=1).float()
        mask = pos.unsqueeze(2).expand_as(loc_preds)
        loc_loss = F.smooth_l1_loss(loc_preds[mask].view(-1, 4), loc_targets[mask].view(-1, 4), reduction="sum")
        pos_neg = cls_targets > -1
        masked_cls = cls_preds[pos_neg.unsqueeze(2).expand_as(cls_preds)].view(-1, self.num_classes)
        cls_loss = self.focal_loss_alt(masked_cls, cls_targets[pos_neg])
        return (loc_loss + cls_loss) / num_pos


def train(net, loader, epochs=10, lr=1e-3):
    criterion = FocalLoss()
    optimizer = torch.optim.Adam(net.parameters(), lr=lr, weight_decay=1e-4)
    for epoch in range(epochs):
        net.train()
        train_loss = 0.0
        for images, loc_targets, cls_targets in loader:
            optimizer.zero_grad()
            loc_preds, cls_preds = net(images)
            loss = criterion(loc_preds, loc_targets, cls_preds, cls_targets)
            loss.backward()
            optimizer.step()
            train_loss += loss.item()
        print(f"epoch {epoch}: {train_loss / max(len(loader), 1):.3f}")
