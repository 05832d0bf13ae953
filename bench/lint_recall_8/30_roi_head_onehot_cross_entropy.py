# Source: https://github.com/mecarill/classawareteacher/issues/3
# Pitfall: the box classifier's loss passes one-hot float class targets to cross_entropy, which wants
# class indices (older torch errors "expected Long"; newer silently treats them as soft targets).
# Reproduced in our own words, not the original code.
import torch
import torch.nn as nn
from torch.nn.functional import cross_entropy, one_hot, smooth_l1_loss


class BoxHead(nn.Module):
    def __init__(self, in_dim=256, num_classes=9):
        super().__init__()
        self.num_classes = num_classes
        self.fc = nn.Sequential(nn.Linear(in_dim, 512), nn.ReLU(), nn.Linear(512, 512), nn.ReLU())
        self.cls_score = nn.Linear(512, num_classes + 1)
        self.bbox_pred = nn.Linear(512, 4 * num_classes)

    def forward(self, roi_feats):
        h = self.fc(roi_feats)
        return self.cls_score(h), self.bbox_pred(h)


def class_aware_losses(head, roi_feats, gt_classes, gt_deltas, class_weights):
    scores, deltas = head(roi_feats)
    gt_oht_classes = one_hot(gt_classes, num_classes=head.num_classes + 1).float()
    w = class_weights[gt_classes]
    loss_cls = torch.mean(cross_entropy(scores, gt_oht_classes, reduction="none") * w)  # expect: one-hot-target
    fg = gt_classes < head.num_classes
    fg_deltas = deltas.view(-1, head.num_classes, 4)[fg, gt_classes[fg]]
    loss_box = smooth_l1_loss(fg_deltas, gt_deltas[fg], beta=0.0, reduction="sum") / max(gt_classes.numel(), 1)
    return {"loss_cls": loss_cls, "loss_box_reg": loss_box}


if __name__ == "__main__":
    head = BoxHead()
    opt = torch.optim.SGD(head.parameters(), lr=0.02, momentum=0.9, weight_decay=1e-4)
    weights = torch.ones(10)
    for it in range(3):
        feats = torch.randn(128, 256)
        cls = torch.randint(0, 10, (128,))
        losses = class_aware_losses(head, feats, cls, torch.randn(128, 4), weights)
        total = sum(losses.values())
        opt.zero_grad()
        total.backward()
        opt.step()
        print(it, {k: round(v.item(), 4) for k, v in losses.items()})
